/// Everything the player tells its delegates. See docs/ARCHITECTURE.md, "The delegate contract".
public enum PlayerEvent: Sendable, Equatable {
    /// `updateLockScreenInfo`: the full now-playing snapshot.
    case nowPlaying(NowPlaying)
    /// Transport state and player-wide settings.
    case playbackState(PlaybackState)
    /// A track became current (ABI 1.1 track started).
    case trackStarted(TrackStarted)
    /// `audioPlayerDidFinishPlaying(successfully:)`.
    case trackFinished(TrackFinished)
    /// A seek that was asked for has been made.
    case seeked(Seeked)
    /// `audioPlayerDecodeErrorDidOccur(error:)`.
    case decodeError(DecodeErrorReport)
    /// `audioPlayerBeginInterruption`: the sound server corked us, or the device went away.
    case interruptionBegan(InterruptionReason)
    /// `audioPlayerEndInterruption`.
    case interruptionEnded(InterruptionReason)
}

/// The transport states of the player.
public enum PlaybackStatus: UInt32, Sendable, Equatable {
    case stopped = 0
    case loading = 1
    case playing = 2
    case paused = 3
    /// Output starved or device lost; resumes by itself.
    case stalled = 4
    /// The queue has ended.
    case complete = 5
    /// Paused by the sound server (cork).
    case interrupted = 6

    public var name: String {
        switch self {
        case .stopped: "stopped"
        case .loading: "loading"
        case .playing: "playing"
        case .paused: "paused"
        case .stalled: "stalled"
        case .complete: "complete"
        case .interrupted: "interrupted"
        }
    }
}

/// The transport state with the settings delegates mirror (MPRIS Volume, Shuffle, LoopStatus).
public struct PlaybackState: Sendable, Equatable {
    public var status: PlaybackStatus
    public var volumePercent: Int
    public var shuffle: Bool
    public var loop: Bool
    public var canSeek: Bool
    /// False when `remote-commands = no`: commands from plugins are refused.
    public var remoteCommands: Bool
    /// Why, while `status` is `.stalled`.
    public var stalledReason: StalledReason

    public init(
        status: PlaybackStatus, volumePercent: Int, shuffle: Bool, loop: Bool, canSeek: Bool,
        remoteCommands: Bool, stalledReason: StalledReason = .none
    ) {
        self.stalledReason = stalledReason
        self.status = status
        self.volumePercent = volumePercent
        self.shuffle = shuffle
        self.loop = loop
        self.canSeek = canSeek
        self.remoteCommands = remoteCommands
    }
}

/// Why the player is stalled.
public enum StalledReason: UInt32, Sendable, Equatable {
    case none = 0
    /// Waiting for data: the decoder, a slow disk, the network.
    case buffering = 1
    /// The sound server or device went away; playback resumes when it is back.
    case deviceLost = 2
}

/// Why a track stopped playing.
public enum FinishReason: UInt32, Sendable, Equatable {
    case completed = 0
    case skipped = 1
    case stopped = 2
    case failed = 3
}

public struct TrackFinished: Sendable, Equatable {
    public var trackID: UInt64
    public var filePath: String?
    public var title: String?
    /// False when decoding failed.
    public var successfully: Bool
    public var reason: FinishReason
    /// The whole track (nil only in tests of the ABI 1.0 fields).
    public var track: TrackRecord?
    /// How much of it was actually heard, in microseconds.
    public var heardMicros: Int64
    /// The position reached in the track, in microseconds.
    public var positionMicros: Int64
    /// Wall-clock time (Unix, microseconds) its first frame was heard; nil if it never was.
    public var firstHeardUnixMicros: Int64?

    public init(
        trackID: UInt64, filePath: String?, title: String?, successfully: Bool, reason: FinishReason,
        track: TrackRecord? = nil, heardMicros: Int64 = 0, positionMicros: Int64 = 0, firstHeardUnixMicros: Int64? = nil
    ) {
        self.trackID = trackID
        self.filePath = filePath
        self.title = title
        self.successfully = successfully
        self.reason = reason
        self.track = track
        self.heardMicros = heardMicros
        self.positionMicros = positionMicros
        self.firstHeardUnixMicros = firstHeardUnixMicros
    }
}

public struct DecodeErrorReport: Sendable, Equatable {
    /// libvorbisfile's code (OV_*), or -1000 for an error found by Motet itself.
    public var code: Int32
    /// One human line.
    public var message: String
    public var filePath: String?
    public var positionMicros: Int64?
    public var trackID: UInt64

    public init(code: Int32, message: String, filePath: String?, positionMicros: Int64?, trackID: UInt64) {
        self.code = code
        self.message = message
        self.filePath = filePath
        self.positionMicros = positionMicros
        self.trackID = trackID
    }
}

public enum InterruptionReason: UInt32, Sendable, Equatable {
    /// A call: the sound server asked us to pause (PulseAudio `request-cork`), or the output saw a
    /// phone or communication stream on a server that asks nothing (PipeWire).
    case corked = 0
    /// The sound server or the device went away.
    case deviceLost = 1
}
