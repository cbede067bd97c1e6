#if canImport(Glibc)
import Glibc
import MotetSystem
#endif

/// What the keyboard, signals and plugins can ask of the player.
public enum PlayerCommand: Sendable, Equatable {
    case play
    case pause
    case toggle
    case next
    case previous
    case stop
    case like
    case dislike
    case unlike
    /// Offset in microseconds, may be negative.
    case seekRelative(Int64)
    /// Position in microseconds from the start of the track.
    case seekAbsolute(Int64)
    /// 0 to 100.
    case setVolume(Int)
    /// Volume up (positive) or down by this many percentage points, from the player's own value:
    /// presses in quick succession all count.
    case changeVolume(Int)
    /// Stop and exit.
    case quit
    /// Whether the queue starts again after its last track.
    case setLoop(Bool)
    /// Whether the queue plays in a random order.
    case setShuffle(Bool)
    /// A file path or file:// URI: appended to the queue and played at once.
    case openURI(String)
    /// Shuffle on if it is off, and off if it is on (the `s` key).
    case toggleShuffle
    /// Loop on if it is off, and off if it is on (the `r` key).
    case toggleLoop
    /// Silences the output, or gives it its volume back (the `m` key); the volume stays as it is.
    case toggleMute
}

extension PlayerCommand {
    /// The command in a log line: "like", "seek-relative -5000000 us".
    public var name: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .toggle: "toggle"
        case .next: "next"
        case .previous: "previous"
        case .stop: "stop"
        case .like: "like"
        case .dislike: "dislike"
        case .unlike: "unlike"
        case .seekRelative(let us): "seek-relative \(us) us"
        case .seekAbsolute(let us): "seek-absolute \(us) us"
        case .setVolume(let v): "set-volume \(v)"
        case .changeVolume(let d): "change-volume \(d)"
        case .quit: "quit"
        case .setLoop(let on): "set-loop \(on ? "playlist" : "none")"
        case .setShuffle(let on): "set-shuffle \(on ? "on" : "off")"
        case .openURI: "open-uri"
        case .toggleShuffle: "toggle-shuffle"
        case .toggleLoop: "toggle-loop"
        case .toggleMute: "toggle-mute"
        }
    }
}

/// The immediate answer to a command sent from outside the player (a plugin).
public enum CommandAnswer: Sendable, Equatable {
    /// Queued; the player will act on it.
    case accepted
    /// Not allowed now; the reason is one human line.
    case refused(String)
    /// The sender's command queue is full: try again later (a flood is refused, not buffered).
    case busy
    /// The command is not known to this host.
    case unsupported
}

