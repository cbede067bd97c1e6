#if canImport(Glibc)
import Glibc
#endif
import CVorbisFile
import MotetEvents

/// Owns one OggVorbis_File opened with ov_open_callbacks over a FILE*/fd (never ov_fopen).
///
/// Decodes an Ogg Vorbis file, every link of a chained file included, to interleaved `Float` frames
/// in WAV channel order. Not thread-safe: use it from one thread at a time (it may be handed from
/// one thread to another, hence `@unchecked Sendable`).
public final class VorbisDecoder: @unchecked Sendable {
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
    /// Set when the last complete page does not end the stream: reported once at the end.
    private var truncation: DecoderError?
    private var finished = false

    /// The most channels a Vorbis stream can have.
    private static let maximumChannels = 255

    /// Opens `path`. Throws one clear line when it is missing, unreadable, empty, a directory, not
    /// Ogg, Ogg but not Vorbis, or has damaged headers.
    public init(path: String) throws(DecoderError) {
        self.path = path
        // O_NONBLOCK: opening a FIFO must not hang; it is cleared again for regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw DecoderError.openFailed(path, errnoValue: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let e = errno
            close(fd)
            throw DecoderError.openFailed(path, errnoValue: e)
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw kind == S_IFDIR
                ? DecoderError.motet(path, "is a directory, not a file", "give the files inside it, or the directory itself to the player")
                : DecoderError.motet(path, "is not a regular file", "give an Ogg Vorbis file")
        }
        guard info.st_size > 0 else {
            close(fd)
            throw DecoderError.motet(path, "the file is empty (0 bytes)", "re-copy or re-download it")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        // Read access is checked by open(2); reading a directory-like object fails here instead.
        var probe: UInt8 = 0
        guard pread(fd, &probe, 1, 0) == 1 else {
            let e = errno
            close(fd)
            throw DecoderError.motet(path, "cannot be read (\(DecoderError.systemMessage(e)))", "check the disk and the file")
        }

        descriptor = .allocate(capacity: 1)
        descriptor.initialize(to: fd)
        file = .allocate(capacity: 1)
        let status = ov_open_callbacks(descriptor, file, nil, 0, FileDescriptorSource.callbacks)
        guard status == 0 else {
            // On failure libvorbisfile has not closed the source (and cleared its own state).
            let what = OggFileInspection.describeNonVorbis(fd: fd)
            if descriptor.pointee >= 0 { close(descriptor.pointee) }
            descriptor.deallocate()
            file.deallocate()
            guard let what, status == OV_ENOTVORBIS || status == OV_EBADHEADER || status == OV_ENOTAUDIO || status == OV_EREAD
            else { throw DecoderError.vorbis(path, code: status) }
            switch what {
            case OggFileInspection.vorbisDescription:
                throw DecoderError(
                    code: status,
                    description: "\(path): its Vorbis headers are damaged or cut short — re-copy or re-encode the file")
            case "not an Ogg file":
                throw DecoderError(code: status, description: "\(path): not an Ogg file — Motet plays only Ogg Vorbis files")
            default:
                throw DecoderError(code: status, description: "\(path): \(what), not Ogg Vorbis — Motet plays only Ogg Vorbis files")
            }
        }

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
                    frames = frames.flatMap { Self.saturatingAdd($0, length) }
                    micros = micros.flatMap { Self.saturatingAdd($0, Self.micros(frames: length, rate: rate)) }
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
        if seekable, OggFileInspection.isTruncated(fd: fd, fileSize: Int64(info.st_size)) {
            truncation = DecoderError.motet(
                path, "the file ends early (cut off after its last complete page)",
                "it may be an incomplete copy or download; copy or download it again")
        }
        // libvorbisfile 1.3.7 can leave a chained file positioned at its SECOND link after opening
        // it (its stream state still holds a serial number seen while mapping the links; oggdec
        // loses the whole first link of such files). A raw seek to byte 0 starts at the first
        // link's first page, which resets that state.
        if seekable {
            let status = ov_raw_seek(file, 0)
            guard status == 0 else { throw DecoderError.vorbis(path, code: status) }
        }
        loadLink(seekable ? 0 : -1)
    }

    deinit {
        ov_clear(file)
        if descriptor.pointee >= 0 { close(descriptor.pointee) }
        descriptor.deallocate()
        file.deallocate()
        channelMap.deallocate()
    }

    /// Time of the next frame `read` returns, from the start of the file.
    public var positionMicros: Int64 {
        let next = ov_pcm_tell(file) - Int64(pendingCount - pendingOffset)
        guard seekable, !links.isEmpty else {
            let seconds = ov_time_tell(file)
            return seconds.isFinite && seconds > 0 ? Int64(seconds * 1_000_000) : 0
        }
        // After a seek the next frame may be in another link than the one last read.
        let span = links[linkIndex(containingFrame: next)]
        return span.firstMicros + Self.micros(frames: max(0, next - span.firstFrame), rate: span.rate)
    }

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
            if pendingOffset == pendingCount { clearPending() }
            return .frames(count)
        }
        if finished { return .endOfStream }

        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        var link: Int32 = 0
        let result = ov_read_float(file, &pcm, Int32(clamping: maxFrames), &link)
        if result > 0, let pcm {
            let count = Int(result)
            if link != currentLink {
                // Re-read the new link's format and tags before handing out its samples.
                loadLink(seekable ? link : -1)
                currentLink = link
                pending = pcm
                pendingOffset = 0
                pendingCount = count
                return .linkChanged
            }
            interleave(pcm, offset: 0, frames: count, into: buffer)
            return .frames(count)
        }
        switch Int32(result) {
        case 0:
            finished = true
            if let truncation {
                self.truncation = nil
                return .failed(truncation)
            }
            return .endOfStream
        case OV_HOLE:
            return .hole(DecoderError.vorbis(path, code: OV_HOLE, at: positionMicros))
        default:
            finished = true
            return .failed(DecoderError.vorbis(path, code: Int32(clamping: result), at: positionMicros))
        }
    }

    /// Moves so that the next `read` returns the frame at `toMicros` from the start of the file
    /// (clamped to the file). When the position is in another link, the next read returns
    /// `.linkChanged` first.
    public func seek(toMicros: Int64) throws(DecoderError) {
        guard seekable, !links.isEmpty else { throw DecoderError.vorbis(path, code: OV_ENOSEEK) }
        let target = max(0, toMicros)
        var index = links.count - 1
        while index > 0, links[index].firstMicros > target { index -= 1 }
        let span = links[index]
        var frame = Self.saturatingAdd(span.firstFrame, Self.frames(micros: target - span.firstMicros, rate: span.rate))
        let linkEnd = index + 1 < links.count ? links[index + 1].firstFrame : (totalFrames ?? frame)
        frame = min(frame, linkEnd)
        let status = ov_pcm_seek(file, frame)
        guard status == 0 else { throw DecoderError.vorbis(path, code: status, at: target) }
        clearPending()
        finished = false
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

    static func micros(frames: Int64, rate: Int64) -> Int64 {
        guard rate > 0 else { return 0 }
        let (whole, rest) = frames.quotientAndRemainder(dividingBy: rate)
        let (wholeMicros, overflow) = whole.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return frames < 0 ? Int64.min : Int64.max }
        return saturatingAdd(wholeMicros, rest * 1_000_000 / rate)
    }

    static func frames(micros: Int64, rate: Int64) -> Int64 {
        let (whole, rest) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let (wholeFrames, overflow) = whole.multipliedReportingOverflow(by: rate)
        if overflow { return micros < 0 ? Int64.min : Int64.max }
        return saturatingAdd(wholeFrames, rest * rate / 1_000_000)
    }

    static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
    }
}
