import MotetConfiguration
import MotetDecoding
import MotetEvents
import MotetNetwork

/// What the decoder knew about a segment (one link of one track) when it started it. Published to
/// the control thread through `DecodeWorker.segments`; the sink thread only sees its id.
struct SegmentInfo: Sendable {
    var segmentID: UInt64
    /// The decoder generation (`PlaybackEngine.reposition`) it was opened in.
    var generation: Int
    var trackID: UInt64
    /// Position in the play order of the track this segment belongs to.
    var orderPosition: Int
    var path: String
    var metadata: TrackMetadata
    var artwork: Artwork?
    var format: AudioFormat
    /// Time in its track of the segment's first sample (each link of a chained file is its own
    /// track, so for a link this counts from the link's start).
    var fileStart: Duration
    /// The track's duration (for a link, the link's).
    var duration: Duration?
    var canSeek: Bool
    /// Where the track starts in the file: zero, or the start of its link in a chained file.
    var linkStart: Duration = .zero
    /// The URL when the track comes over the network (then `path` holds the same string); nil for
    /// a local file.
    var url: String? = nil
    /// What the station says about itself (a stream's icy-* headers); nil for a local file.
    var station: StationInfo? = nil
    /// A live stream: no duration, no seeking, songs arrive as chained links.
    var isLive: Bool = false
    /// The crossfade that brings this track in, if any: the previous track's last frames play
    /// under this one's first (`CrossfadeSpan`).
    var crossfade: CrossfadeSpan? = nil
    /// What the playlist that listed it called it (`PlayQueue.title(at:)`): a stream's title when
    /// its link has no TITLE tag. Set by the control thread.
    var listedTitle: String? = nil
}

/// What the decoder thread tells the control thread.
enum DecoderReport: Sendable {
    /// A segment (a track, a link of a chained file, or a position after a seek) was opened; its
    /// samples follow in the ring.
    case segmentOpened(SegmentInfo)
    /// The file could not be opened; the decoder went on with the next entry. `listedIn`: the
    /// playlist that listed it (the entry alone may not say where to fix it).
    case openFailed(path: String, orderPosition: Int, error: DecoderError, listedIn: String?)
    /// A decode error inside a track (a hole or a fatal error).
    case decodeError(trackID: UInt64, path: String, error: DecoderError, positionMicros: Int64, fatal: Bool)
    /// News for the console that is no error: the stream at `url` lost and reconnecting, back, or
    /// buffering on a slow connection.
    case notice(NetworkNotice, url: String)
    /// The entry `request` took turned out to be a playlist, and was read: its `entries` are to
    /// take its place in the queue (`PlayQueue.replace(at:with:)`, on the control thread), while
    /// the decoder waits. `lines` say what was skipped while reading it (each a whole line,
    /// `motet: ` included).
    case playlistRead(TrackRequest, entries: [InputExpander.PlayedTrack], lines: [String])
    /// A track disliked earlier was passed over (`DislikedTracks`); the decoder went on.
    case passedOver(path: String, title: String?, generation: Int)
    /// A whole pass of the queue had nothing to play (`disliked` of `total` passed over, the
    /// others unopenable): nothing more is decoded, and the output ends.
    case nothingLeft(disliked: Int, total: Int, generation: Int)
}

extension DecoderReport {
    /// The one line about a decoder error, made on the control thread for both surfaces: the
    /// terminal's (after `motet: `) and the delegates' (`DecodeErrorReport.message`). `path` is the
    /// track's path or URL as the decoder was given it; an entry of a playlist names the playlist.
    static func line(_ error: DecoderError, path: String, listedIn: String? = nil) -> String {
        error.line(path: path) + (listedIn.map { " (listed in \($0))" } ?? "")
    }
}

/// A track the control thread asks the decoder to play next.
struct TrackRequest: Sendable, Equatable {
    var orderPosition: Int
    var path: String
    /// Where to start in it.
    var start: Duration
    /// Keep this track id (a seek reopens the same track).
    var reuseTrackID: UInt64?
    /// The decoder generation this request belongs to.
    var generation: Int
    /// The remote playlists the entry came from (`PlayQueue.origin(at:)`).
    var origin: [String] = []
    /// Read it as an input is before playing it (`PlayQueue.expandsWhenPlayed(at:)`).
    var expand = false
}
