import MotetDecoding
import MotetEvents
import MotetSystem

/// The fade out of a stream after a cut (`AudioTail`, `DecodeWorker.openCut`): a decoder over
/// what the output was to play of it from the cut, which a stream cannot give again. It stands
/// where the cut was (`positionMicros`), and ends with the audio kept: the fade is at most that
/// long (`CrossfadePlan` sees its frames left).
final class TailDecoder: AudioDecoder, @unchecked Sendable {
    // Unchecked: used by the decoder thread only, as every decoder (`AudioDecoder`).
    let tail: AudioTail
    let path: String
    let metadata: TrackMetadata
    /// The frame of the stream the tail starts at, and how many of it were read.
    private let startFrame: Int64
    private let startMicros: Int64
    private var read = 0

    init(_ tail: AudioTail, path: String, metadata: TrackMetadata, at position: Duration) {
        self.tail = tail
        self.path = path
        self.metadata = metadata
        startMicros = position.microseconds
        startFrame = FrameTime.framesSaturating(microseconds: startMicros, rate: Int64(tail.format.sampleRate))
    }

    var format: AudioFormat { tail.format }
    var linkCount: Int { 1 }
    var totalFrames: Int64? { startFrame + Int64(tail.frames) }
    var durationMicros: Int64? { totalFrames.map { FrameTime.microsecondsSaturating(frames: $0, rate: Int64(format.sampleRate)) } }
    var canSeek: Bool { false }
    /// The start exactly as given (`DecodeWorker.frame(of:)` gives `startFrame` back), then by
    /// frames read.
    var positionMicros: Int64 {
        read == 0 ? startMicros : FrameTime.microsecondsSaturating(frames: startFrame + Int64(read), rate: Int64(format.sampleRate))
    }
    var linkStartMicros: Int64 { 0 }
    var linkDurationMicros: Int64? { nil }
    var nominalBitrate: Int { 0 }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep {
        let n = min(maxFrames, tail.frames - read)
        guard n > 0 else { return .endOfStream }
        let channels = format.channels
        tail.samples.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + read * channels, count: n * channels) }
        read += n
        return .frames(n)
    }

    /// A tail is read once, from its start.
    func seek(toMicros: Int64) throws(DecoderError) { throw DecoderError.cannotSeek }
}
