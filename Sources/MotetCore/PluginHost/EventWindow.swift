import MotetEvents
import MotetSystem

/// The events sent to a plugin's process and not yet taken (docs/ISOLATION.md): at most
/// `capacity` on their way, numbered from 1 for each process; the oldest one's wait is what the
/// watchdog times. Several on their way, so that the events of a track boundary (finish, start,
/// state, now-playing) do not each wait for the one before them to come back; few, so that what
/// waits in the instance's queue still coalesces. A value: `IsolatedPluginInstance` guards it
/// with its lock.
struct EventWindow {
    /// How many events may be on their way at once.
    static let capacity = 16
    /// How long one event may wait to be taken before the process is taken for stuck.
    static let watchdog: Duration = .seconds(10)
    /// What the supervision line says of a process the watchdog caught.
    static var stuck: String { "stopped taking events (one waited \(watchdog.secondsText) s)" }

    /// Sent and not yet settled, oldest first, with when each went.
    private var onTheirWay: [(number: UInt64, event: QueuedEvent, sentAt: MonotonicInstant)] = []
    private var lastSent: UInt64 = 0
    /// The last event the process said it took.
    private var taken: UInt64 = 0

    var isFull: Bool { onTheirWay.count >= Self.capacity }

    /// The tracks whose events are on their way (for the count of what a plugin did not get).
    var tracks: Set<UInt64> { Set(onTheirWay.compactMap { $0.event.kind.track }) }

    /// When the oldest event on its way has waited too long; nil when none is.
    var watchdogDeadline: MonotonicInstant? { onTheirWay.first.map { $0.sentAt + Self.watchdog } }

    /// Notes `event` as sent at `now`; its number, for the frame.
    mutating func send(_ event: QueuedEvent, at now: MonotonicInstant) -> UInt64 {
        lastSent += 1
        onTheirWay.append((lastSent, event, now))
        return lastSent
    }

    /// The process took every event up to `number`: how many more than it had said (0 for old
    /// or repeated news, and for a number never sent).
    mutating func took(upTo number: UInt64) -> Int {
        guard number > taken, number <= lastSent else { return 0 }
        defer { taken = number }
        return Int(number - taken)
    }

    func hasTaken(_ number: UInt64) -> Bool { taken >= number }

    /// Removes the events the process took, oldest first, and returns them (they are delivered).
    mutating func settle() -> [QueuedEvent] {
        let count = onTheirWay.prefix { $0.number <= taken }.count
        defer { onTheirWay.removeFirst(count) }
        return onTheirWay.prefix(count).map(\.event)
    }

    /// The process failed: what it had not taken, oldest first (to send again to the next one).
    /// The window is empty after it.
    mutating func takeBack() -> [QueuedEvent] {
        _ = settle()
        defer { onTheirWay = [] }
        return onTheirWay.map(\.event)
    }
}
