#if canImport(Glibc)
import Glibc
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

/// Monotonic time in microseconds (`CLOCK_MONOTONIC`), the clock of `NowPlaying.elapsedAtMicros`.
public func monotonicMicros() -> Int64 {
    MonotonicClock.now() / 1000
}
