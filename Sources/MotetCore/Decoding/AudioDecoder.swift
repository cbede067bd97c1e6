import MotetEvents

/// What the decoder thread needs of a codec: one Ogg file or stream (every link of a chain
/// included) read as interleaved `Float` frames in WAV channel order, with the current link's
/// format and tags, times, and seeking. `VorbisDecoder` (libvorbisfile) and `OpusDecoder`
/// (libopusfile) conform; `OggDecoding.open(path:)` chooses between them by the stream's first
/// packet. Everything after the decoder is codec-blind (docs/ARCHITECTURE.md, "Data flow").
///
/// Duties of a conformer:
/// - `read(into:maxFrames:)` never allocates per call, writes at most `maxFrames` frames of the
///   current link's channel count, and announces a new link with `.linkChanged` (no samples)
///   after `format` and `metadata` already describe it.
/// - Times are microseconds from the start of the file; a link of a chain counts from
///   `linkStartMicros`.
/// - Not thread-safe: used from one thread at a time (it may be handed from one thread to
///   another, hence `Sendable` on an `@unchecked` class).
public protocol AudioDecoder: AnyObject, Sendable {
    /// The file or URL, as given.
    var path: String { get }
    /// The format of the current link.
    var format: AudioFormat { get }
    /// The tags of the current link.
    var metadata: TrackMetadata { get }
    /// How many links (logical streams) the file chains; 1 for an ordinary file or a stream.
    var linkCount: Int { get }
    /// Sum of every link's time; nil when the file cannot be measured.
    var durationMicros: Int64? { get }
    /// Sum of every link's frames; nil when the file cannot be measured.
    var totalFrames: Int64? { get }
    /// False when the input is read as a stream: `seek` throws then, and `durationMicros` is nil.
    var canSeek: Bool { get }
    /// Time of the next frame `read` returns, from the start of the file.
    var positionMicros: Int64 { get }
    /// Where the current link starts, from the start of the file.
    var linkStartMicros: Int64 { get }
    /// How long the current link lasts; nil when unknown (a file read as a stream).
    var linkDurationMicros: Int64? { get }
    /// The current link's nominal bit rate (bits a second; 0 when unknown).
    var nominalBitrate: Int { get }

    /// Reads up to `maxFrames` interleaved frames of the current link into `buffer` (capacity
    /// `maxFrames * format.channels`), in WAV channel order.
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) -> DecodeStep

    /// Moves so that the next `read` returns the frame at `toMicros` (clamped to the file). When
    /// the position is in another link, that link is current at once (format, tags, times).
    func seek(toMicros: Int64) throws(DecoderError)
}

extension AudioDecoder {
    /// Where `--start` puts a freshly opened file: a seek, except that a time at or past the end
    /// is an error (``DecoderError/startPastEnd(startMicros:durationMicros:)``) instead of an
    /// empty track that "finished". (The player never seeks past the end otherwise: such a seek
    /// is a skip to the next track.)
    public func start(atMicros start: Int64) throws(DecoderError) {
        if let end = durationMicros, start >= end {
            throw DecoderError.startPastEnd(startMicros: start, durationMicros: end)
        }
        try seek(toMicros: start)
    }
}
