#if canImport(Glibc)
import Glibc
#endif
import COpusFile
import MotetEvents
import MotetNetwork
import MotetSystem

/// Owns one `OggOpusFile` opened with `op_open_callbacks` over a file descriptor (or a network
/// stream's callbacks).
///
/// Decodes an Ogg Opus file, every link of a chained file included, to interleaved `Float` frames
/// at 48 kHz (the rate libopusfile always decodes to) in WAV channel order. libopusfile does the
/// exactness: pre-skip and end trimming from the granule positions, the header's output gain
/// (RFC 7845 says it is always applied: libopusfile's default, `OP_HEADER_GAIN` with no offset),
/// and the pre-roll when seeking. Mapping family 1 orders channels as Vorbis does, so
/// `ChannelOrder` maps them. Not thread-safe: use it from one thread at a time.
public final class OpusDecoder: AudioDecoder, @unchecked Sendable {
    /// The file, as given.
    public let path: String
    /// The format of the current link (always 48 kHz).
    public private(set) var format: AudioFormat
    /// The tags of the current link, from its OpusTags.
    public private(set) var metadata: TrackMetadata
    /// How many links the file chains; 1 for an ordinary file or a stream.
    public let linkCount: Int
    /// Sum of every link's time; nil when the file cannot be measured (a stream).
    public let durationMicros: Int64?
    /// Sum of every link's frames; nil when the file cannot be measured.
    public let totalFrames: Int64?
    /// False for a stream read link after link.
    public var canSeek: Bool { seekable }

    /// The rate libopusfile decodes every Opus stream to.
    public static let sampleRate = 48000
    /// The most channels Motet places: mapping families 0 and 1 (Vorbis order, `ChannelOrder`).
    static let maximumChannels = 8
    /// The most frames one Opus packet decodes to (120 ms at 48 kHz): the most one read asks for.
    static let maximumReadFrames = 5760

    private let file: OpaquePointer
    /// The heap cell the callbacks read the descriptor from (-1 for a callback source).
    private let descriptor: UnsafeMutablePointer<Int32>
    /// What keeps a callback source (a network stream) alive as long as the decoder.
    private let owner: AnyObject?
    /// The source's failure (a network stream that gave up) or the file's truncation, said once.
    private var endOfInput: DecodeEnding
    private let seekable: Bool
    /// Per link, its first frame from the start of the file (seekable files only).
    private let linkFirstFrames: [Int64]
    /// libopusfile's index of the link whose samples were handed out last.
    private var currentLink: Int32 = 0
    /// `channelMap[i]`: the Opus (Vorbis-order) channel written at interleaved position `i`.
    private let channelMap: UnsafeMutablePointer<Int>
    /// Whether the current link's channels need reordering (3 or more channels).
    private var reorders = false
    /// Samples decoded before reordering, and a new link's samples kept for after `.linkChanged`.
    private let staging: UnsafeMutablePointer<Float>
    private var pendingOffset = 0
    private var pendingCount = 0
    private var finished = false
    /// The last page has no end-of-stream flag: libopusfile then trims nothing at the end and
    /// hands out the last packet's padding, which `framesBeforeEnd` cuts off at the last granule
    /// position, as the Vorbis path does (`VorbisDecoder.framesBeforeEnd`).
    private let lacksEndOfStream: Bool
    /// A stream's position is counted: when the current link started and frames since.
    private var streamLinkStartMicros: Int64 = 0
    private var streamFramesInLink: Int64 = 0
    /// Damage reported since the last samples: past `maximumConsecutiveErrors`, decoding gives up.
    private var consecutiveErrors = 0
    private var lastHoleLine: String?

    /// libopusfile's errors that it reads past: a hole, a damaged packet, a bad timestamp.
    private static let recoverable: Set<Int32> = [OP_HOLE, OP_EBADPACKET, OP_EBADTIMESTAMP]
    private static let maximumConsecutiveErrors = 64

    /// The rest of opening, once `op_open_callbacks` succeeded: the links, their times, the first
    /// link's format and tags. Frees `file` when it throws.
    init(
        path: String, file: OpaquePointer, descriptor: UnsafeMutablePointer<Int32>, owner: AnyObject?,
        ending: OggFileInspection.Ending, playsAsStream: Bool, sourceFailure: (() -> NetworkError?)? = nil
    ) throws(DecoderError) {
        self.path = path
        self.file = file
        self.descriptor = descriptor
        self.owner = owner
        endOfInput = DecodeEnding(sourceFailure: sourceFailure, truncation: ending == .cutShort ? .endsEarly : nil)
        seekable = op_seekable(file) != 0
        linkCount = max(1, Int(op_link_count(file)))
        channelMap = .allocate(capacity: Self.maximumChannels)
        channelMap.initialize(repeating: 0, count: Self.maximumChannels)
        staging = .allocate(capacity: Self.maximumReadFrames * Self.maximumChannels)
        var firsts: [Int64] = []
        var frames: Int64? = seekable ? 0 : nil
        var widest = 0
        if seekable {
            firsts.reserveCapacity(linkCount)
            for link in 0..<Int32(linkCount) {
                firsts.append(frames ?? 0)
                let length = op_pcm_total(file, link)
                frames = length < 0 ? nil : frames.map { FrameTime.saturatingAdd($0, length) }
                widest = max(widest, Int(op_channel_count(file, link)))
            }
        }
        linkFirstFrames = firsts
        totalFrames = frames
        durationMicros = frames.map { FrameTime.microsecondsSaturating(frames: $0, rate: Int64(Self.sampleRate)) }
        format = AudioFormat(sampleRate: 0, channels: 0)
        metadata = TrackMetadata()
        lacksEndOfStream = ending == .withoutEndOfStream
        // Deinit frees what is allocated above, `file` included, when this throws.
        if widest > Self.maximumChannels { throw DecoderError.opusChannels(widest) }
        if let error = loadLink(seekable ? 0 : -1) { throw error }
        if playsAsStream {
            metadata.warnings.append("the file is damaged: it plays from the start, without seeking or a known duration")
        }
    }

    deinit {
        op_free(file)
        if descriptor.pointee >= 0 { close(descriptor.pointee) }
        descriptor.deallocate()
        channelMap.deallocate()
        staging.deallocate()
    }

    /// The current link's bit rate (bits a second; 0 when unknown, as for a stream).
    public var nominalBitrate: Int { seekable ? max(0, Int(op_bitrate(file, currentLink))) : 0 }

    /// Time of the next frame `read` returns, from the start of the file.
    public var positionMicros: Int64 {
        guard seekable else {
            return FrameTime.saturatingAdd(
                streamLinkStartMicros, FrameTime.microsecondsSaturating(frames: streamFramesInLink, rate: Int64(Self.sampleRate)))
        }
        return FrameTime.microsecondsSaturating(frames: max(0, op_pcm_tell(file) - Int64(pendingCount - pendingOffset)), rate: Int64(Self.sampleRate))
    }

    /// Where the current link starts, from the start of the file.
    public var linkStartMicros: Int64 {
        guard seekable else { return streamLinkStartMicros }
        return FrameTime.microsecondsSaturating(frames: linkFirstFrames[currentLinkIndex], rate: Int64(Self.sampleRate))
    }

    /// How long the current link lasts; nil for a stream.
    public var linkDurationMicros: Int64? {
        guard seekable else { return nil }
        let length = op_pcm_total(file, Int32(currentLinkIndex))
        return length < 0 ? nil : FrameTime.microsecondsSaturating(frames: length, rate: Int64(Self.sampleRate))
    }

    private var currentLinkIndex: Int { min(max(0, Int(currentLink)), max(0, linkFirstFrames.count - 1)) }

    /// Reads up to `maxFrames` frames of the CURRENT link into `buffer` (capacity `maxFrames *
    /// format.channels`), in WAV channel order. Returns `.linkChanged` (no samples) when the next
    /// samples belong to a new link: `format` and `metadata` already describe it. Never allocates.
    public func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep {
        guard maxFrames > 0 else { return .frames(0) }
        let channels = format.channels
        if pendingCount > pendingOffset {
            let count = min(maxFrames, pendingCount - pendingOffset)
            copyOut(staging + pendingOffset * channels, frames: count, into: buffer)
            pendingOffset += count
            if pendingOffset == pendingCount { clearPending() }
            return handedOut(count)
        }
        if finished { return endOfInput.end() }
        // Mono and stereo decode straight into `buffer`; more channels into `staging`, then
        // reordered. libopusfile writes at most `room` floats, whatever the link's channels.
        let direct = !reorders
        let frames = min(maxFrames, Self.maximumReadFrames)
        let room = Int32(frames * max(1, channels))
        var link: Int32 = 0
        // libopusfile's position stops at the end while the padding still comes: ask before.
        let before = lacksEndOfStream ? op_pcm_tell(file) : 0
        let result = op_read_float(file, direct ? buffer : staging, room, &link)
        if result > 0 {
            if link != currentLink { return newLink(link, frames: Int(result), decodedInto: direct ? buffer : staging) }
            let count = framesBeforeEnd(Int(result), from: before)
            if count < result { finished = true }
            if count == 0 { return endOfInput.end() }
            if !direct { copyOut(staging, frames: count, into: buffer) }
            return handedOut(count)
        }
        if result == 0 {
            finished = true
            return endOfInput.end()
        }
        guard Self.recoverable.contains(result), consecutiveErrors < Self.maximumConsecutiveErrors else {
            finished = true
            endOfInput.truncation = nil
            return .failed(endOfInput.sourceFailed(code: result) ?? DecoderError.opus(result, atMicros: positionMicros))
        }
        consecutiveErrors += 1
        let skipped = DecoderError.skipped(result, atMicros: positionMicros)
        // The same line is the same damage: said once, until samples come again.
        let line = skipped.line(path: path)
        if consecutiveErrors > 1, line == lastHoleLine { return read(into: buffer, maxFrames: maxFrames) }
        lastHoleLine = line
        return .hole(skipped)
    }

    /// How many of the `frames` just read lie before the end of the file's last link as its last
    /// granule position states it (all of them unless the last page lacks the end-of-stream flag),
    /// `position` being where they start.
    @inline(__always)
    private func framesBeforeEnd(_ frames: Int, from position: Int64) -> Int {
        guard lacksEndOfStream, seekable, Int(currentLink) == linkCount - 1, let totalFrames else { return frames }
        return Int(max(0, min(Int64(frames), totalFrames - position)))
    }

    /// Counts `count` frames handed out.
    @inline(__always)
    private func handedOut(_ count: Int) -> DecodeStep {
        streamFramesInLink += Int64(count)
        consecutiveErrors = 0
        return .frames(count)
    }

    /// The first samples of a new link: kept in `staging` for the next read, after the link's
    /// format and tags are loaded.
    private func newLink(_ link: Int32, frames: Int, decodedInto samples: UnsafeMutablePointer<Float>) -> DecodeStep {
        let channels = Int(op_channel_count(file, seekable ? link : -1))
        if samples != staging { staging.update(from: samples, count: frames * channels) }
        streamLinkStartMicros = positionMicros
        streamFramesInLink = 0
        currentLink = link
        pendingOffset = 0
        pendingCount = frames
        if let error = loadLink(seekable ? link : -1) {
            clearPending()
            finished = true
            endOfInput.truncation = nil
            return .failed(error)
        }
        return .linkChanged
    }

    /// Copies `frames` interleaved frames in Opus order to `buffer` in WAV order.
    @inline(__always)
    private func copyOut(_ source: UnsafeMutablePointer<Float>, frames: Int, into buffer: UnsafeMutablePointer<Float>) {
        let channels = format.channels
        guard reorders else {
            buffer.update(from: source, count: frames * channels)
            return
        }
        for c in 0..<channels {
            var input = source + channelMap[c]
            var output = buffer + c
            for _ in 0..<frames {
                output.pointee = input.pointee
                input += channels
                output += channels
            }
        }
    }

    /// Moves so that the next `read` returns the frame at `toMicros` from the start of the file
    /// (clamped to the file); libopusfile decodes the codec's pre-roll before it. The link sought
    /// into is current at once.
    public func seek(toMicros: Int64) throws(DecoderError) {
        guard seekable else { throw DecoderError.opus(OP_ENOSEEK) }
        let target = max(0, toMicros)
        var frame = FrameTime.framesSaturating(microseconds: target, rate: Int64(Self.sampleRate))
        if let totalFrames { frame = min(frame, totalFrames) }
        clearPending()
        finished = false
        consecutiveErrors = 0
        let status = op_pcm_seek(file, frame)
        guard status == 0 else { throw DecoderError.opus(status, atMicros: target) }
        let link = op_current_link(file)
        if link >= 0, link != currentLink {
            currentLink = link
            if let error = loadLink(link) { throw error }
        }
    }

    // MARK: Private

    /// Reads format and tags of `link` (-1: the current one) and prepares the channel map; the
    /// error when Motet cannot place its channels.
    private func loadLink(_ link: Int32) -> DecoderError? {
        let channels = Int(op_channel_count(file, link))
        format = AudioFormat(sampleRate: Self.sampleRate, channels: channels)
        if let tags = op_tags(file, link) {
            metadata = VorbisCommentReader.metadata(
                entries: tags.pointee.user_comments, lengths: tags.pointee.comment_lengths, count: tags.pointee.comments, gains: .r128)
        } else {
            metadata = TrackMetadata()
        }
        guard (1...Self.maximumChannels).contains(channels) else { return .opusChannels(channels) }
        reorders = channels > 2
        for (i, source) in ChannelOrder.wavToVorbis(channels: channels).enumerated() { channelMap[i] = source }
        return nil
    }

    private func clearPending() {
        pendingOffset = 0
        pendingCount = 0
    }
}
