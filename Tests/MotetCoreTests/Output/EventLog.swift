import MotetOutput
import MotetTestSupport
import Synchronization

/// Collects sink events from the sink's threads.
final class EventLog: Sendable {
    private let events = Mutex<[OutputNotice]>([])

    var handler: @Sendable (OutputNotice) -> Void { { [self] e in events.withLock { $0.append(e) } } }
    var all: [OutputNotice] { events.withLock { $0 } }

    /// Waits until `event` has been seen, up to `timeout` seconds.
    func wait(for event: OutputNotice, timeout: Double) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { all.contains(event) }) ?? false
    }
}
