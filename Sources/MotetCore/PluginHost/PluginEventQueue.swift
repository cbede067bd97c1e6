/// The events waiting for one plugin instance, bounded so a stuck plugin cannot grow memory.
///
/// - Now-playing coalesces: a new one replaces the one still waiting (latest wins) and goes to
///   the end, so it stays after the events that preceded it.
/// - Other events keep their order. When `capacity` is reached, the oldest playback state that a
///   later one supersedes is dropped; failing that, the oldest event other than now-playing.
struct PluginEventQueue {
    /// Most events waiting at once.
    static let capacity = 256

    private var entries: [QueuedEvent] = []
    private var head = 0
    /// Events dropped since the last `takeDroppedCount()`.
    private var dropped = 0

    var count: Int { entries.count - head }
    var isEmpty: Bool { count == 0 }

    mutating func push(_ event: QueuedEvent) {
        compact()
        if event.isNowPlaying, let waiting = entries.firstIndex(where: \.isNowPlaying) {
            entries.remove(at: waiting)
        }
        if entries.count >= Self.capacity {
            if let superseded = oldestSupersededPlaybackState() {
                entries.remove(at: superseded)
            } else if let oldest = entries.firstIndex(where: { !$0.isNowPlaying }) {
                entries.remove(at: oldest)
            }
            dropped += 1
        }
        entries.append(event)
    }

    mutating func pop() -> QueuedEvent? {
        guard head < entries.count else { return nil }
        let event = entries[head]
        head += 1
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        }
        return event
    }

    /// How many events were dropped since the last call, and resets the count.
    mutating func takeDroppedCount() -> Int {
        defer { dropped = 0 }
        return dropped
    }

    /// Moves the waiting events to the front so indexes below are plain array indexes.
    private mutating func compact() {
        if head > 0 {
            entries.removeFirst(head)
            head = 0
        }
    }

    private func oldestSupersededPlaybackState() -> Int? {
        guard let last = entries.lastIndex(where: \.isPlaybackState) else { return nil }
        let first = entries.firstIndex(where: \.isPlaybackState)!
        return first < last ? first : nil
    }
}
