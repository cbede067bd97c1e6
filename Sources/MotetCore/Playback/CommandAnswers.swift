import Synchronization

/// What `Player.send` needs to answer a command at once, on any thread, without asking the control
/// thread: written by the state machine, read lock-free.
final class CommandAnswers: Sendable {
    private let nextEnabled = Atomic<Bool>(false)
    private let skipsExhausted = Atomic<Bool>(false)
    private let currentTrack = Atomic<UInt64>(0)

    /// The state machine's current track (0: none).
    func update(currentTrack track: UInt64) {
        currentTrack.store(track, ordering: .releasing)
    }

    /// Why a command for `track` would be refused as stale now, or nil (0 means "the current one").
    func staleRefusal(track: UInt64) -> String? {
        guard track != 0, track != currentTrack.load(ordering: .acquiring) else { return nil }
        return "track \(track) is no longer current (stale)"
    }

    /// The state machine's view after each change.
    func update(nextEnabled enabled: Bool, skipsExhausted exhausted: Bool) {
        skipsExhausted.store(exhausted, ordering: .releasing)
        nextEnabled.store(enabled, ordering: .releasing)
    }

    /// Why a next would be refused now, or nil when it would be taken.
    func nextRefusal() -> String? {
        if nextEnabled.load(ordering: .acquiring) { return nil }
        return skipsExhausted.load(ordering: .acquiring) ? "no skip left (--skip-limit)" : "there is no next track"
    }
}
