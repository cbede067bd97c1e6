import MotetEvents
import MotetSystem

/// `--output-rate HZ`: another decoder made to look like a decoder of `outputRate` Hz. Its frames
/// go through a ``Resampler`` (libsoxr, high quality); the channels stay as they are.
///
/// Open a file with ``wrapping(_:outputRate:)``, which leaves a decoder that already has the rate
/// as it is: such a track stays bit-exact (nothing here touches its samples).
///
/// - **Frames.** Fed a link of `n` frames, it hands out exactly
///   ``Resampler/outputFrames(forInput:from:to:)`` frames: at the inner decoder's end (and before
///   a new link) the resampler is flushed, its tail handed out, then `.endOfStream` (or
///   `.linkChanged`). `.hole` and `.failed` pass through as they come.
/// - **Links.** A chained file's links may have other rates or channels: at a new link a new
///   resampler is made (it allocates: once per link), or none when the link already has the
///   output's rate. `format` and `metadata` change when `.linkChanged` is returned, after the
///   previous link's tail.
/// - **Times.** `positionMicros` counts the frames handed out since the open, the last seek or
///   the last link change, from where that was. `totalFrames` is the resampled count of a file of
///   one link (nil for a chain); durations, link times, seeking and tags are the inner decoder's.
/// - **Allocation.** Two buffers (the inner decoder's frames, the resampler's output) are
///   allocated in `init` and grow only at a new link with more channels; `read` allocates nothing
///   (libsoxr's own FIFOs warm up within the first calls: see ``Resampler``). A seek re-arms the
///   resampler (`clear`), which allocates.
///
/// Not thread-safe: used from one thread at a time, like every decoder.
public final class ResamplingDecoder: AudioDecoder, @unchecked Sendable {
    /// The rate every frame handed out has.
    public let outputRate: Int
    private let inner: any AudioDecoder
    /// The inner decoder's rate when it was opened (its only one, for a file of one link).
    private let firstRate: Int
    /// The current link's resampler; nil while the link already has `outputRate` (frames pass).
    private var resampler: Resampler?
    /// The current link's channels, as handed out (the inner decoder may be ahead, in a new link).
    private var channels: Int
    public private(set) var metadata: TrackMetadata

    /// Frames the resampler may write per call, and frames read from the inner decoder per call
    /// (at most what resamples to a little under that, so the output block always has room).
    static let outputChunk = 4096
    private var inputChunk: Int
    private var input: UnsafeMutablePointer<Float>
    private var inputCapacity: Int
    private var output: UnsafeMutablePointer<Float>
    private var outputCapacity: Int
    /// Frames read from the inner decoder not yet taken by the resampler.
    private var inputOffset = 0
    private var inputCount = 0
    /// Frames resampled not yet handed out.
    private var outputOffset = 0
    private var outputCount = 0
    /// The inner decoder has ended (`ending`) or announced a new link (`linkPending`): the
    /// resampler's tail is being flushed.
    private var ending = false
    private var linkPending = false
    /// Everything was handed out: `.endOfStream` from now on (until a seek).
    private var ended = false
    /// Where the frames handed out since the open, seek or link change started, and how many.
    private var startMicros: Int64
    private var framesOut: Int64 = 0

    /// `decoder` as it is when it already has `outputRate` (or none is asked for), else wrapped.
    public static func wrapping(_ decoder: any AudioDecoder, outputRate: Int?) throws(DecoderError) -> any AudioDecoder {
        guard let outputRate, decoder.format.sampleRate != outputRate else { return decoder }
        return try ResamplingDecoder(decoder, outputRate: outputRate)
    }

    /// Wraps `inner` (any rate; one that already has `outputRate` passes its frames as they are).
    public init(_ inner: any AudioDecoder, outputRate: Int) throws(DecoderError) {
        self.inner = inner
        self.outputRate = outputRate
        firstRate = inner.format.sampleRate
        channels = max(1, inner.format.channels)
        metadata = inner.metadata
        startMicros = inner.positionMicros
        inputChunk = 1
        inputCapacity = 0
        outputCapacity = 0
        input = .allocate(capacity: 1)
        output = .allocate(capacity: 1)
        try makeResampler()
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    public var path: String { inner.path }
    public var format: AudioFormat {
        resampler == nil ? inner.format : AudioFormat(sampleRate: outputRate, channels: channels)
    }
    public var linkCount: Int { inner.linkCount }
    public var durationMicros: Int64? { inner.durationMicros }
    public var totalFrames: Int64? {
        guard inner.linkCount == 1, firstRate > 0, let frames = inner.totalFrames, frames >= 0 else { return nil }
        return Resampler.outputFrames(forInput: frames, from: firstRate, to: outputRate)
    }
    public var canSeek: Bool { inner.canSeek }
    public var positionMicros: Int64 {
        guard resampler != nil else { return inner.positionMicros }
        return FrameTime.saturatingAdd(startMicros, FrameTime.microsecondsSaturating(frames: framesOut, rate: Int64(outputRate)))
    }
    public var linkStartMicros: Int64 { inner.linkStartMicros }
    public var linkDurationMicros: Int64? { inner.linkDurationMicros }
    public var nominalBitrate: Int { inner.nominalBitrate }

    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep {
        guard maxFrames > 0 else { return .frames(0) }
        while true {
            if outputCount > 0 {
                let n = min(maxFrames, outputCount)
                buffer.update(from: output + outputOffset * channels, count: n * channels)
                outputOffset += n
                outputCount -= n
                framesOut += Int64(n)
                return .frames(n)
            }
            if ended { return .endOfStream }
            guard let resampler else { return passThrough(into: buffer, maxFrames: maxFrames) }
            if ending || linkPending {
                let (_, produced) = resampler.process(nil, frames: 0, into: output, capacity: Self.outputChunk)
                if produced > 0 {
                    outputOffset = 0
                    outputCount = produced
                    continue
                }
                if ending {
                    ended = true
                    return .endOfStream
                }
                linkPending = false
                return newLink()
            }
            if inputCount > 0 {
                let (consumed, produced) = resampler.process(
                    input + inputOffset * channels, frames: inputCount, into: output, capacity: Self.outputChunk)
                inputOffset += consumed
                inputCount -= consumed
                outputOffset = 0
                outputCount = produced
                // Never seen (the output block has room for more than a read resampled): no spin.
                if consumed == 0, produced == 0 { return .frames(0) }
                continue
            }
            switch inner.read(into: input, maxFrames: inputChunk) {
            case .frames(let n):
                if n == 0 { return .frames(0) }
                inputOffset = 0
                inputCount = n
            case .linkChanged:
                linkPending = true
            case .endOfStream:
                ending = true
            case .hole(let error):
                return .hole(error)
            case .failed(let error):
                return .failed(error)
            }
        }
    }

    public func seek(toMicros: Int64) throws(DecoderError) {
        try inner.seek(toMicros: toMicros)
        // The seek may have made another link current, of another format.
        let f = inner.format
        if let r = resampler, r.inputRate == f.sampleRate, r.channels == max(1, f.channels) {
            r.clear()
        } else {
            try makeResampler()
        }
        channels = max(1, f.channels)
        metadata = inner.metadata
        restart()
    }

    /// The current link already has the output's rate: its frames as they are.
    private func passThrough(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep {
        let step = inner.read(into: buffer, maxFrames: maxFrames)
        switch step {
        case .linkChanged: return newLink()
        case .endOfStream: ended = true
        default: break
        }
        return step
    }

    /// The inner decoder's new link is next (the previous one's tail is out): its format and tags.
    private func newLink() -> DecodeStep {
        do throws(DecoderError) {
            try makeResampler()
        } catch {
            ended = true
            return .failed(error)
        }
        channels = max(1, inner.format.channels)
        metadata = inner.metadata
        restart()
        return .linkChanged
    }

    /// Forgets what was read and resampled (a seek, a new link): counts from the inner decoder's
    /// position.
    private func restart() {
        inputOffset = 0
        inputCount = 0
        outputOffset = 0
        outputCount = 0
        ending = false
        linkPending = false
        ended = false
        startMicros = inner.positionMicros
        framesOut = 0
    }

    /// A resampler for the inner decoder's current link (none when it has the output's rate), and
    /// buffers with room for its channels. Allocates.
    private func makeResampler() throws(DecoderError) {
        let rate = inner.format.sampleRate
        let channels = max(1, inner.format.channels)
        guard rate > 0, rate != outputRate else {
            resampler = nil
            return
        }
        do throws(ResamplerError) {
            resampler = try Resampler(from: rate, to: outputRate, channels: channels)
        } catch {
            throw DecoderError.resampler(error.message)
        }
        // Reads small enough that their resampled frames fit the output block with some room.
        let room = Int64(Self.outputChunk - 16)
        inputChunk = Int(max(1, min(Int64(Self.outputChunk), room * Int64(rate) / Int64(outputRate))))
        if inputChunk * channels > inputCapacity {
            input.deallocate()
            inputCapacity = inputChunk * channels
            input = .allocate(capacity: inputCapacity)
        }
        if Self.outputChunk * channels > outputCapacity {
            output.deallocate()
            outputCapacity = Self.outputChunk * channels
            output = .allocate(capacity: outputCapacity)
        }
    }
}
