import Synchronization

/// What `Player.send` needs to answer a command at once, on any thread, without asking the control
/// thread: written by the state machine, read lock-free.
final class CommandAnswers: Sendable {
    private let nextEnabled = Atomic<Bool>(false)
    private let skipsExhausted = Atomic<Bool>(false)

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
