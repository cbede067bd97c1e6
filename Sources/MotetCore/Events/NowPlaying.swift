/// What is playing, as the player publishes it: an immutable snapshot, sent in full (not a diff).
///
/// `track == nil` means "nothing playing": delegates must clear what they show.
public struct NowPlaying: Sendable, Equatable {
    /// The track, or nil when nothing is playing.
    public var track: TrackInfo?
    /// Changes whenever a (new or repeated) track starts; 0 when nothing is playing.
    public var trackID: UInt64
    /// What has been heard of the track (sink position minus latency), in microseconds.
    public var elapsedMicros: Int64?
    /// `CLOCK_MONOTONIC` time, in microseconds, when `elapsedMicros` was sampled.
    public var elapsedAtMicros: Int64
    /// 1.0 while playing, 0.0 while paused, stopped or interrupted.
    public var rate: Double
    public var liked: Bool
    public var disliked: Bool
    /// False while no skip is left or there is no next track.
    public var nextEnabled: Bool
    public var previousEnabled: Bool
    /// Why next is not enabled (nil while it is, and when nothing plays).
    public var nextDisabledReason: NextDisabledReason?

    public init(
        track: TrackInfo?, trackID: UInt64, elapsedMicros: Int64?, elapsedAtMicros: Int64, rate: Double,
        liked: Bool, disliked: Bool, nextEnabled: Bool, previousEnabled: Bool, nextDisabledReason: NextDisabledReason? = nil
    ) {
        self.track = track
        self.trackID = trackID
        self.elapsedMicros = elapsedMicros
        self.elapsedAtMicros = elapsedAtMicros
        self.rate = rate
        self.liked = liked
        self.disliked = disliked
        self.nextEnabled = nextEnabled
        self.previousEnabled = previousEnabled
        self.nextDisabledReason = nextEnabled ? nil : nextDisabledReason
    }

    /// The "nothing playing" snapshot.
    public static func nothing(at now: Int64) -> NowPlaying {
        NowPlaying(
            track: nil, trackID: 0, elapsedMicros: nil, elapsedAtMicros: now, rate: 0,
            liked: false, disliked: false, nextEnabled: false, previousEnabled: false)
    }
}

/// Why next is not enabled now. The one home of its wording: a refused next says it, the plugins
/// get it (`motet_now_playing.next_disabled_reason`, ABI 1.3), and the status line's "last track"
/// and "skips left: 0" stand for it.
public enum NextDisabledReason: UInt8, Sendable, Equatable {
    /// `--skip-limit`: no skip is left now (said first when both hold).
    case skipLimit = 1
    /// Nothing follows in the queue.
    case lastTrack = 2

    /// One human line, as plugins show it beside a disabled next.
    public var text: String {
        switch self {
        case .skipLimit: "no skip left (--skip-limit)"
        case .lastTrack: "there is no next track"
        }
    }
}

/// The descriptive part of what is playing: tags of the current link, file, artwork.
public struct TrackInfo: Sendable, Equatable {
    public var title: String?
    /// Each ARTIST comment is one artist.
    public var artists: [String]
    public var album: String?
    /// Duration of the track (for a link of a chained file or stream, the link's), in
    /// microseconds; nil for a live stream.
    public var durationMicros: Int64?
    public var artwork: Artwork?
    /// The file being played.
    public var filePath: String?
    /// The URL being played (a stream), or nil for a local file.
    public var url: String?
    /// What the station says about itself (a stream's icy-* headers), or nil.
    public var station: StationInfo?

    public init(
        title: String?, artists: [String], album: String?, durationMicros: Int64?, artwork: Artwork?,
        filePath: String?, url: String? = nil, station: StationInfo? = nil
    ) {
        self.url = url
        self.station = station
        self.title = title
        self.artists = artists
        self.album = album
        self.durationMicros = durationMicros
        self.artwork = artwork
        self.filePath = filePath
    }

    /// All artists joined with ", ", or nil when there are none.
    public var joinedArtists: String? { artists.isEmpty ? nil : artists.joined(separator: ", ") }
}

/// Cover art: the image bytes, what they are, a stable id and a file that holds them.
public struct Artwork: Sendable, Equatable {
    public var bytes: [UInt8]
    /// e.g. "image/png".
    public var mime: String
    /// Stable: the same id means the same bytes (a hash of the bytes, in hex).
    public var id: String
    /// A file holding the same bytes (in the artwork cache), for consumers that need a URI.
    public var path: String?

    public init(bytes: [UInt8], mime: String, id: String, path: String?) {
        self.bytes = bytes
        self.mime = mime
        self.id = id
        self.path = path
    }
}
