/// One track as the track events describe it: everything a scrobbler submits, without having to
/// remember a now-playing. Each link of a chained file or stream is its own track.
public struct TrackRecord: Sendable, Equatable {
    /// >= 1; the `trackID` of the track's now-playing events.
    public var trackID: UInt64
    public var title: String?
    /// Each ARTIST comment is one artist.
    public var artists: [String]
    public var album: String?
    public var durationMicros: Int64?
    /// The file, or nil for a stream.
    public var filePath: String?
    /// The URL, or nil for a local file.
    public var url: String?
    /// What the station says about itself (a stream's icy-* headers), or nil.
    public var station: StationInfo?
    /// The artwork's stable id, or nil when the track has none.
    public var artworkID: String?

    public init(
        trackID: UInt64, title: String?, artists: [String], album: String?, durationMicros: Int64?,
        filePath: String?, url: String? = nil, station: StationInfo? = nil, artworkID: String? = nil
    ) {
        self.trackID = trackID
        self.title = title
        self.artists = artists
        self.album = album
        self.durationMicros = durationMicros
        self.filePath = filePath
        self.url = url
        self.station = station
        self.artworkID = artworkID
    }

    /// All artists joined with ", ", or nil when there are none.
    public var joinedArtists: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }
}

/// Why a track became current.
public enum StartReason: UInt32, Sendable, Equatable {
    /// The previous track ended, or it is the first track of the run.
    case natural = 0
    /// Next, or a dislike that skipped.
    case next = 1
    case previous = 2
    /// The queue started again under `--loop`.
    case loop = 3
    /// Asked for explicitly: play after stop, a seek past the end, open URI.
    case request = 4
}

/// A track became current (also while paused).
public struct TrackStarted: Sendable, Equatable {
    public var track: TrackRecord
    public var reason: StartReason
    /// Wall-clock time (Unix, microseconds) it became current.
    public var startedAtUnixMicros: Int64
    /// The crossfade that brought it in (it became current in its middle); nil without one. For
    /// the terminal: the ABI's struct does not change.
    public var crossfade: Duration?

    public init(track: TrackRecord, reason: StartReason, startedAtUnixMicros: Int64, crossfade: Duration? = nil) {
        self.track = track
        self.reason = reason
        self.startedAtUnixMicros = startedAtUnixMicros
        self.crossfade = crossfade
    }
}

/// A seek the user or a plugin asked for has been made.
public struct Seeked: Sendable, Equatable {
    public var trackID: UInt64
    /// Where the track is now, in microseconds.
    public var positionMicros: Int64

    public init(trackID: UInt64, positionMicros: Int64) {
        self.trackID = trackID
        self.positionMicros = positionMicros
    }
}
