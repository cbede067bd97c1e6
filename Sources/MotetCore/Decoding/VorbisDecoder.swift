#if canImport(Glibc)
import Glibc
#endif
import CVorbisFile
import MotetEvents
import MotetNetwork
import MotetSystem

/// Owns one OggVorbis_File opened with ov_open_callbacks over a FILE*/fd (never ov_fopen).
///
/// Decodes an Ogg Vorbis file, every link of a chained file included, to interleaved `Float` frames
/// in WAV channel order. Not thread-safe: use it from one thread at a time (it may be handed from
/// one thread to another, hence `@unchecked Sendable`).
public final class VorbisDecoder: AudioDecoder, @unchecked Sendable {
    /// The file, as given to `init(path:)`.
    public let path: String
    /// The format of the current link.
    public private(set) var format: AudioFormat
    /// The tags of the current link.
    public private(set) var metadata: TrackMetadata
    /// How many links (logical streams) the file chains; 1 for an ordinary file.
    public let linkCount: Int
    /// Sum of every link's time (mixed-rate chains right); nil when the file cannot be measured.
    public let durationMicros: Int64?
    /// Sum of every link's pcm_total; nil when the file cannot be measured.
    public let totalFrames: Int64?
    /// False when the file is read as a stream (its later links are damaged): `seek` throws then,
    /// and `durationMicros` is nil.
    public var canSeek: Bool { seekable && !links.isEmpty }

    /// What keeps a callback source (a network stream) alive as long as the decoder; nil for a file.
    private let owner: AnyObject?
    /// The source's failure (a network stream that gave up) or the file's truncation, said once.
    private var endOfInput: DecodeEnding

    private let file: UnsafeMutablePointer<OggVorbis_File>
    /// The heap cell libvorbisfile's callbacks read the descriptor from (see `FileDescriptorSource`).
    private let descriptor: UnsafeMutablePointer<Int32>
    private let seekable: Bool
    /// Per link: first frame and first microsecond from the start of the file, and the rate.
    private let links: [LinkSpan]
    private var currentLink: Int32 = 0
    /// `channelMap[i]`: the Vorbis channel written at interleaved position `i` (WAV order).
    private let channelMap: UnsafeMutablePointer<Int>
    /// Samples of a new link already taken from libvorbisfile, handed out after `.linkChanged`.
    private var pending: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
    private var pendingOffset = 0
    private var pendingCount = 0
    private var finished = false
    /// The last page has no end-of-stream flag: libvorbis then hands out the last packet's padding,
    /// which `framesBeforeEnd` cuts off, counting frames in `nextFrame`.
    private var lacksEndOfStream = false
    /// The file frame of the next frame handed out (libvorbisfile's `ov_pcm_tell` is off by the
    /// padding on the last page of such a file). Set again after every seek and hole.
    private var nextFrame: Int64 = 0
    /// Without seeking (a damaged file read as a stream), the position is counted: the time at
    /// which the current link started and the frames handed out since.
    private var streamLinkStartMicros: Int64 = 0
    private var streamFramesInLink: Int64 = 0
    /// A later link of the file is Ogg Opus: a link libvorbisfile finds "not Vorbis" is said to be that.
    private let chainsOpus: Bool
    /// Damage reported since the last samples: past `maximumConsecutiveErrors`, decoding gives up.
    private var consecutiveErrors = 0
    /// The last `.hole` reported, to report the same damage once.
    private var lastHoleLine: String?

    /// libvorbisfile's errors that it can read past: a gap, a damaged packet, link or link header
    /// (a damaged header reads as "not Vorbis").
    private static let recoverable: Set<Int32> = [OV_HOLE, OV_EBADPACKET, OV_EBADHEADER, OV_ENOTVORBIS, OV_EBADLINK]
    private static let maximumConsecutiveErrors = 64

    /// The most channels a Vorbis stream can have.
    private static let maximumChannels = 255

    /// The rest of opening, once `ov_open_callbacks` succeeded on `file`: the links, their times,
    /// the first link's format and tags. `descriptor` holds the file's descriptor (-1 for a
    /// callback source, which `owner` keeps alive).
    init(
        path: String, file: UnsafeMutablePointer<OggVorbis_File>, descriptor: UnsafeMutablePointer<Int32>, owner: AnyObject?,
        ending: OggFileInspection.Ending, playsAsStream: Bool, chainsOpus: Bool = false, sourceFailure: (() -> NetworkError?)? = nil
    ) throws(DecoderError) {
        self.chainsOpus = chainsOpus
        self.path = path
        self.file = file
        self.descriptor = descriptor
        self.owner = owner
        endOfInput = DecodeEnding(sourceFailure: sourceFailure, truncation: ending == .cutShort ? .endsEarly : nil)
        seekable = ov_seekable(file) != 0
        linkCount = max(1, Int(ov_streams(file)))
        channelMap = .allocate(capacity: Self.maximumChannels + 1)
        channelMap.initialize(repeating: 0, count: Self.maximumChannels + 1)

        var spans: [LinkSpan] = []
        var frames: Int64? = 0
        var micros: Int64? = 0
        if seekable {
            spans.reserveCapacity(linkCount)
            for link in 0..<linkCount {
                let length = ov_pcm_total(file, Int32(link))
                let rate = Int64(ov_info(file, Int32(link))?.pointee.rate ?? 0)
                let span = LinkSpan(firstFrame: frames ?? 0, firstMicros: micros ?? 0, rate: max(1, rate))
                spans.append(span)
                if length < 0 || rate <= 0 {
                    frames = nil
                    micros = nil
                } else {
                    frames = frames.flatMap { FrameTime.saturatingAdd($0, length) }
                    micros = micros.flatMap { FrameTime.saturatingAdd($0, FrameTime.microsecondsSaturating(frames: length, rate: rate)) }
                }
            }
        } else {
            frames = nil
            micros = nil
        }
        links = spans
        totalFrames = frames
        durationMicros = micros
        format = AudioFormat(sampleRate: 0, channels: 0)
        metadata = TrackMetadata()
        lacksEndOfStream = ending == .withoutEndOfStream
        // libvorbisfile 1.3.7 can leave a chained file positioned at its SECOND link after opening
        // it (its stream state still holds a serial number seen while mapping the links; oggdec
        // loses the whole first link of such files). A raw seek to byte 0 starts at the first
        // link's first page, which resets that state.
        if seekable {
            let status = ov_raw_seek(file, 0)
            guard status == 0 else { throw DecoderError.vorbis(status) }
        }
        loadLink(seekable ? 0 : -1)
        if playsAsStream {
            metadata.warnings.append(
                chainsOpus
                    ? "the file chains Ogg Vorbis and Ogg Opus links: it plays from the start, without seeking or a known duration"
                    : "the file is damaged: it plays from the start, without seeking or a known duration")
        }
    }

    deinit {
        ov_clear(file)
        if descriptor.pointee >= 0 { close(descriptor.pointee) }
        descriptor.deallocate()
        file.deallocate()
        channelMap.deallocate()
    }

    /// The current link's nominal bit rate from its identification header (0 when unset).
    var currentNominalBitrate: Int { max(0, Int(ov_info(file, -1)?.pointee.bitrate_nominal ?? 0)) }

    /// Time of the next frame `read` returns, from the start of the file.
    public var positionMicros: Int64 {
        let next = ov_pcm_tell(file) - Int64(pendingCount - pendingOffset)
        guard seekable, !links.isEmpty else {
            return FrameTime.saturatingAdd(
                streamLinkStartMicros, FrameTime.microsecondsSaturating(frames: streamFramesInLink, rate: Int64(format.sampleRate)))
        }
        // After a seek the next frame may be in another link than the one last read.
        let span = links[linkIndex(containingFrame: next)]
        return span.firstMicros + FrameTime.microsecondsSaturating(frames: max(0, next - span.firstFrame), rate: span.rate)
    }

    /// Where the current link starts, from the start of the file (each link of a chain is its own
    /// track: its times are counted from here).
    public var linkStartMicros: Int64 {
        guard seekable, !links.isEmpty else { return streamLinkStartMicros }
        return links[currentLinkIndex].firstMicros
    }

    /// How long the current link lasts; nil when unknown (a file read as a stream).
    public var linkDurationMicros: Int64? {
        guard seekable, !links.isEmpty else { return nil }
        let i = currentLinkIndex
        let end = i + 1 < links.count ? links[i + 1].firstMicros : durationMicros
        return end.map { max(0, $0 - links[i].firstMicros) }
    }

    private var currentLinkIndex: Int { min(max(0, Int(currentLink)), links.count - 1) }

    /// The last link whose first frame is at or before `frame` (binary search).
    private func linkIndex(containingFrame frame: Int64) -> Int {
        var low = 0
        var high = links.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if links[middle].firstFrame <= frame { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Reads up to `maxFrames` interleaved Float frames of the CURRENT link into `buffer` (capacity
    /// maxFrames * format.channels), in WAV/SMPTE channel order (map Vorbis order for 1..8 channels,
    /// Vorbis I spec 4.3.9). Returns .linkChanged (with NO samples) when the next samples belong to a
    /// new link: `format` and `metadata` are already updated then. Never allocates per call.
    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep {
        guard maxFrames > 0 else { return .frames(0) }
        if pendingCount > pendingOffset, let pending {
            let count = min(maxFrames, pendingCount - pendingOffset)
            interleave(pending, offset: pendingOffset, frames: count, into: buffer)
            pendingOffset += count
            nextFrame += Int64(count)
            streamFramesInLink += Int64(count)
            consecutiveErrors = 0
            if pendingOffset == pendingCount { clearPending() }
            return .frames(count)
        }
        if finished { return endOfInput.end() }

        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        var link: Int32 = 0
        let result = ov_read_float(file, &pcm, Int32(clamping: maxFrames), &link)
        if result > 0, let pcm { return deliver(pcm, frames: Int(result), link: link, into: buffer) }
        let code = Int32(clamping: result)
        if code == 0 {
            finished = true
            return endOfInput.end()
        }
        guard Self.recoverable.contains(code), consecutiveErrors < Self.maximumConsecutiveErrors else {
            finished = true
            endOfInput.truncation = nil
            return .failed(endOfInput.sourceFailed(code: code) ?? DecoderError.vorbis(code, atMicros: positionMicros))
        }
        consecutiveErrors += 1
        let skipped =
            chainsOpus && code == OV_ENOTVORBIS
            ? DecoderError.opusLinkSkipped(atMicros: positionMicros) : DecoderError.skipped(code, atMicros: positionMicros)
        guard code == OV_HOLE, !seekable else { return hole(skipped, into: buffer, maxFrames: maxFrames) }
        // Read as a stream, libvorbisfile reports a hole at every link boundary: a hole followed
        // directly by a new link's samples is that boundary, not damage.
        let next = ov_read_float(file, &pcm, Int32(clamping: maxFrames), &link)
        if next > 0, let pcm {
            if link != currentLink { return deliver(pcm, frames: Int(next), link: link, into: buffer) }
            keepPending(pcm, frames: Int(next))
        } else if next == 0 {
            finished = true
        }
        // Another error is met again by the next read.
        return hole(skipped, into: buffer, maxFrames: maxFrames)
    }

    /// `.hole(skipped)`, unless the same damage was just reported with no samples since (libvorbisfile
    /// reports a damaged link once per header it fails to read): then what the next read gives, so
    /// the user reads one line per damaged place. Bounded by `maximumConsecutiveErrors`.
    private func hole(_ skipped: DecoderError, into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep {
        // The same line is the same damage (positions within a millisecond, codes said alike).
        let line = skipped.line(path: path)
        if consecutiveErrors > 1, line == lastHoleLine {
            return read(into: buffer, maxFrames: maxFrames)
        }
        lastHoleLine = line
        nextFrame = ov_pcm_tell(file) - Int64(pendingCount - pendingOffset)
        return .hole(skipped)
    }

    /// Hands out samples just read: interleaved into `buffer`, or kept for the next read after
    /// announcing a new link (whose format and tags are loaded first).
    private func deliver(
        _ pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, frames: Int, link: Int32,
        into buffer: UnsafeMutablePointer<Float>
    ) -> DecodeStep {
        if link != currentLink {
            streamLinkStartMicros = positionMicros
            streamFramesInLink = 0
            loadLink(seekable ? link : -1)
            currentLink = link
            keepPending(pcm, frames: frames)
            return .linkChanged
        }
        let count = framesBeforeEnd(frames)
        if count < frames { finished = true }
        if count == 0 { return endOfInput.end() }
        interleave(pcm, offset: 0, frames: count, into: buffer)
        nextFrame += Int64(count)
        streamFramesInLink += Int64(count)
        consecutiveErrors = 0
        return .frames(count)
    }

    /// How many of the `frames` just read lie before the end of the file's last link as its last
    /// granule position states it. libvorbis cuts the last packet's padding at that position only on
    /// a page with the end-of-stream flag; without the flag (common in the wild) it hands out up to
    /// a block of padding past the end, which this cuts off, so such a file decodes bit-exactly.
    private func framesBeforeEnd(_ frames: Int) -> Int {
        guard lacksEndOfStream, seekable, Int(currentLink) == links.count - 1, let totalFrames,
            nextFrame + Int64(frames) > totalFrames
        else { return frames }
        return Int(max(0, totalFrames - nextFrame))
    }

    /// Keeps samples that libvorbisfile returned (they stay in its buffers until the next read or
    /// seek) for the next call.
    private func keepPending(_ pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, frames: Int) {
        pending = pcm
        pendingOffset = 0
        pendingCount = frames
    }

    /// Moves so that the next `read` returns the frame at `toMicros` from the start of the file
    /// (clamped to the file). The link sought into is current at once.
    public func seek(toMicros: Int64) throws(DecoderError) {
        guard seekable, !links.isEmpty else { throw DecoderError.vorbis(OV_ENOSEEK) }
        let target = max(0, toMicros)
        var index = links.count - 1
        while index > 0, links[index].firstMicros > target { index -= 1 }
        let span = links[index]
        var frame = FrameTime.saturatingAdd(span.firstFrame, FrameTime.framesSaturating(microseconds: target - span.firstMicros, rate: span.rate))
        let linkEnd = index + 1 < links.count ? links[index + 1].firstFrame : (totalFrames ?? frame)
        frame = min(frame, linkEnd)
        // Pending samples live in libvorbisfile's buffers, which a seek frees even when it fails.
        clearPending()
        finished = false
        consecutiveErrors = 0
        let status = ov_pcm_seek(file, frame)
        guard status == 0 else { throw DecoderError.vorbis(status, atMicros: target) }
        nextFrame = ov_pcm_tell(file)
        // The link sought into is current at once (format, tags, times): a seek within a link is
        // no link change.
        if Int32(index) != currentLink {
            loadLink(Int32(index))
            currentLink = Int32(index)
        }
    }

    // MARK: Private

    private struct LinkSpan {
        var firstFrame: Int64
        var firstMicros: Int64
        var rate: Int64
    }

    /// Reads format and tags of `link` (-1: the current one) and prepares the channel map.
    private func loadLink(_ link: Int32) {
        let info = ov_info(file, link)
        let channels = Int(info?.pointee.channels ?? 0)
        let rate = Int(info?.pointee.rate ?? 0)
        format = AudioFormat(sampleRate: rate, channels: channels)
        metadata = VorbisCommentReader.metadata(from: UnsafePointer(ov_comment(file, link)))
        let map = ChannelOrder.wavToVorbis(channels: min(channels, Self.maximumChannels))
        for (i, source) in map.enumerated() { channelMap[i] = source }
    }

    private func clearPending() {
        pending = nil
        pendingOffset = 0
        pendingCount = 0
    }

    /// Copies `frames` frames from libvorbisfile's per-channel buffers, starting at `offset`, into
    /// `buffer` interleaved in WAV order.
    @inline(__always)
    private func interleave(
        _ pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>, offset: Int, frames: Int,
        into buffer: UnsafeMutablePointer<Float>
    ) {
        let channels = format.channels
        if channels == 2, let left = pcm[0], let right = pcm[1] {
            for i in 0..<frames {
                buffer[2 * i] = left[offset + i]
                buffer[2 * i + 1] = right[offset + i]
            }
            return
        }
        for c in 0..<channels {
            guard let source = pcm[channelMap[c]] else { continue }
            var out = buffer + c
            for i in offset..<offset + frames {
                out.pointee = source[i]
                out += channels
            }
        }
    }
}
