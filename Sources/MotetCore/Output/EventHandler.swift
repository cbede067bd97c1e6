import MotetEvents

/// Holds a sink's `onEvent` handler: set on one thread, called from another.
final class EventHandler: Sendable {
    private let stored = Locked<(@Sendable (SinkEvent) -> Void)?>(nil)

    /// The handler, or nil.
    var handler: (@Sendable (SinkEvent) -> Void)? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }

    /// Calls the handler, if any, with `event`.
    func emit(_ event: SinkEvent) {
        handler?(event)
    }
}
