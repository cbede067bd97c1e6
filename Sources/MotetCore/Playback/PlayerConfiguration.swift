@_exported import MotetDecoding
@_exported import MotetEvents
@_exported import MotetNetwork

/// Everything the player needs to know before it starts, already validated by the executable.
public struct PlayerConfiguration: Sendable {
    /// Playable files, in the order given (directories and playlists already expanded).
    public var files: [String]
    /// What the playlists called the files (PLS `TitleN=`, M3U `#EXTINF`, XSPF `<title>`): the
    /// title of a stream that has no TITLE tag. Nil for most; may be shorter than `files`.
    public var titles: [String?] = []
    /// The playlists each file was listed in, outermost first (`InputExpander.expandWithTitles`):
    /// a file that cannot be played names the playlist too. May be shorter than `files`.
    public var origins: [[String]] = []
    public var shuffle: Bool = false
    public var loop: Bool = false
    /// Where to start the first track.
    public var start: Duration = .zero
    public var replayGain: ReplayGainMode = .track
    /// 0 to 100.
    public var volume: Int = 100
    /// At most `count` skips in any window of `minutes`.
    public var skipLimit: (count: Int, minutes: Int)?
    public var defaultArtwork: String?
    public var artworkCacheDirectory: String
    /// False: commands from plugins are refused and not acted on.
    public var remoteCommands: Bool = true
    /// `--skip-disliked`: pass over tracks disliked earlier (see `DislikedTracks`).
    public var skipDisliked: Bool = true
    /// Where likes and dislikes are remembered; nil keeps them for this run only.
    public var feedbackDirectory: String?
    /// How often the status line is refreshed while playing; nil when nothing shows it.
    public var displayInterval: Duration?
    /// The output's name ("pulse", "alsa", "wav", "null"), for messages.
    public var outputName = "null"
    /// How URLs are fetched: user agent, timeouts, pre-buffer, reconnection.
    public var network = NetworkOptions()
    /// `--crossfade TIME`: how long consecutive tracks overlap (zero: off). README, "Crossfade".
    public var crossfade: Duration = .zero
    /// `--crossfade-albums yes`: crossfade inside a gapless album too.
    public var crossfadeAlbums = false
    /// `--output-rate HZ`: every track resampled to this rate (libsoxr); nil: none is.
    public var outputRate: Int? = nil

    public init(files: [String], artworkCacheDirectory: String) {
        self.files = files
        self.artworkCacheDirectory = artworkCacheDirectory
    }
}

/// Who sent a command: the person at the keyboard (or a signal), or a plugin.
public enum CommandSource: Sendable, Hashable {
    case user
    case plugin(String)
}

/// What the terminal shows, refreshed a few times a second while playing.
public struct PlayerDisplay: Sendable {
    public var nowPlaying: NowPlaying
    public var status: PlaybackStatus
    public var volume: Int
    /// Skips left in the current window, nil when unlimited.
    public var skipsLeft: Int?
    /// The queue plays in a random order; it starts again after its last track.
    public var shuffle = false
    public var loop = false
    /// The output is silenced (`m`), whatever the volume.
    public var muted = false
    /// A crossfade sounds now (two tracks at once): its whole length.
    public var crossfade: Duration? = nil
}
