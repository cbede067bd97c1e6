import MotetEvents
import MotetSystem

/// What the player is doing, as one value (docs/ARCHITECTURE.md, "The state machine"). Each phase
/// carries only the data that means something in it: a stopped or finished player cannot be
/// opening a track, losing its device or running dry. `PlaybackStatus`, what the ABI reports, is
/// derived from it (`status`) and never stored.
enum PlayerPhase: Equatable {
    /// Sound is wanted and the current track's is not heard yet: a track or position is being
    /// opened, or its first frame is on its way to the device.
    case loading(Underway)
    /// The current track's sound is heard.
    case playing(Underway)
    /// Sound is wanted, but the ring ran dry for `PlayerStateMachine.stall` while playing.
    case buffering(Underway)
    /// The person paused (the output holds what it has).
    case paused(Underway)
    /// Another stream has the speakers (the sound server corked us): the output holds until the
    /// uncork or a play.
    case interrupted(Underway)
    /// Stopped: the workers hold, and play starts play-order position `at` from its start.
    case stopped(at: Int)
    /// The queue was played to its end; the run ends.
    case complete
    /// Quit was asked; the run ends.
    case quit

    /// What the ABI and every surface report: `loading` and `playing` read `stalled` while the
    /// device is lost, `quit` reads `stopped`.
    var status: PlaybackStatus {
        switch self {
        case .loading(let u): u.deviceLost ? .stalled : .loading
        case .playing(let u): u.deviceLost ? .stalled : .playing
        case .buffering: .stalled
        case .paused: .paused
        case .interrupted: .interrupted
        case .stopped, .quit: .stopped
        case .complete: .complete
        }
    }

    /// Why a stall: the device is gone (said in every phase that has one, paused too), or the ring
    /// ran dry.
    var stalledReason: StalledReason {
        if underway?.deviceLost == true { return .deviceLost }
        if case .buffering = self { return .buffering }
        return .none
    }

    /// Sound is wanted and the output runs: the one definition of "moving" (toggle pauses it, a
    /// cork interrupts it, boundaries are due in it).
    var isMoving: Bool {
        switch self {
        case .loading, .playing, .buffering: true
        default: false
        }
    }

    /// The run is over: the player's loop ends.
    var isFinished: Bool { self == .complete || self == .quit }

    /// What goes on in a phase that has, or is getting, a track; nil when stopped or finished.
    /// Setting it keeps the phase (and does nothing in a phase without one).
    var underway: Underway? {
        get {
            switch self {
            case .loading(let u), .playing(let u), .buffering(let u), .paused(let u), .interrupted(let u): u
            case .stopped, .complete, .quit: nil
            }
        }
        set {
            guard let u = newValue else { return }
            switch self {
            case .loading: self = .loading(u)
            case .playing: self = .playing(u)
            case .buffering: self = .buffering(u)
            case .paused: self = .paused(u)
            case .interrupted: self = .interrupted(u)
            case .stopped, .complete, .quit: break
            }
        }
    }

    /// The opening waiting for its first segment, if any.
    var opening: Opening? { underway?.opening }
}

/// What goes on while the player has (or is getting) a track: facts that outlive a pause or a cork.
struct Underway: Equatable {
    /// A reposition the decoder has not answered with a segment yet.
    var opening: Opening?
    /// The output said its device or server is gone (`OutputNotice.lost`) and not yet back.
    var deviceLost = false
    /// When the sink said the ring ran dry; nil while samples flow. The sink says it once per dry
    /// spell, so it is kept through a pause.
    var drySince: MonotonicInstant?
}

/// A track, or a position in one, asked of the decoder and not opened yet. The first segment the
/// decoder opens for it becomes current at once, before it is heard, so that paused navigation
/// shows the new track or position on every surface.
struct Opening: Equatable {
    /// Its play-order position (a second next counts from it); nil when the queue is empty.
    var position: Int?
    /// A seek: the reopened segment's position is announced with a `seeked` event.
    var seek = false
    /// Commands about "the current track" (like, seek) that came meanwhile, run once it is open
    /// (at most `PlayerStateMachine.maxDeferred`, the oldest dropped).
    var deferred: [DeferredCommand] = []
}

/// A command kept for the track being opened.
struct DeferredCommand: Equatable {
    var command: PlayerCommand
    var source: CommandSource
}
