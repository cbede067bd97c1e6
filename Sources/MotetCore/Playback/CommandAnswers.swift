import MotetEvents
import Synchronization

/// What `Player.send` needs to answer a command at once, on any thread, without asking the control
/// thread: written by the state machine, read lock-free.
final class CommandAnswers: Sendable {
    /// `NextDisabledReason`'s raw value, 0 while next is enabled; no next track before the first.
    private let nextDisabled = Atomic<UInt8>(NextDisabledReason.lastTrack.rawValue)
    private let currentTrack = Atomic<UInt64>(0)
    /// The highest id that has been current: plugins learn ids only from the events of a current
    /// track, and ids only grow, so a larger one never named a track.
    private let highestTrack = Atomic<UInt64>(0)

    /// The state machine's current track (0: none).
    func update(currentTrack track: UInt64) {
        _ = highestTrack.max(track, ordering: .releasing)
        currentTrack.store(track, ordering: .releasing)
    }

    /// Why a command for `track` would be refused now because of the track it names, or nil (0
    /// means "the current one"): no such track, or no longer current (stale).
    func trackRefusal(track: UInt64) -> String? {
        guard track != 0, track != currentTrack.load(ordering: .acquiring) else { return nil }
        if track > highestTrack.load(ordering: .acquiring) { return "no such track: \(track)" }
        return "track \(track) is no longer current (stale)"
    }

    /// The state machine's view after each change.
    func update(nextDisabled reason: NextDisabledReason?) {
        nextDisabled.store(reason?.rawValue ?? 0, ordering: .releasing)
    }

    /// Why a next would be refused now, or nil when it would be taken.
    func nextRefusal() -> String? {
        NextDisabledReason(rawValue: nextDisabled.load(ordering: .acquiring))?.text
    }
}
