import MotetEvents

/// The control thread's one inbox: keys, signals, plugins' commands and the decoder's reports, in
/// the order they were posted. Posting never blocks for long (a short lock, then a wake-up); the
/// sink thread never posts here (its events go through the sink worker's lock-free queue).
final class PlayerInbox: Sendable {
    private let messages = Locked<[PlayerMessage]>([])
    /// Wakes the control thread; shared with the sink worker.
    let wakeup = Wakeup()

    /// Any thread: adds a message and wakes the control thread.
    func post(_ message: PlayerMessage) {
        messages.withLock { $0.append(message) }
        wakeup.signal()
    }

    /// Control thread: everything posted so far, oldest first.
    func take() -> [PlayerMessage] {
        messages.withLock { m in
            let taken = m
            m.removeAll(keepingCapacity: true)
            return taken
        }
    }
}
