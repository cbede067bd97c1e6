import MotetSystem

/// Keeps a message that repeats from flooding the terminal or the journal (a lost device, a
/// failing plugin, a track that cannot be played on each pass of a `--loop`): a message is said
/// the first time, then its repeats are counted and said as one "repeated N times" line at most
/// once per ``interval``, and once more at the end (``finish()``) for what was still unsaid.
///
/// Messages are told apart by their whole text. A message that comes back after a quiet interval
/// with no repeat unsaid is said again in full. The clock is injected so
/// that tests can script time. Not thread-safe: the caller holds it under its own lock, and writes
/// the lines it returns in order.
public struct RepeatedMessageLimiter: Sendable {
    /// How often a repeated message may be summed up: 10 s, as a glitch's line.
    public static let defaultInterval: Duration = .seconds(10)
    /// How many different messages are remembered; the one said longest ago is forgotten first
    /// (after its unsaid repeats are said), so a long run's memory stays bounded.
    static let capacity = 64

    private struct Entry {
        var text: String
        /// When the message or its last "repeated" line was said.
        var saidAt: MonotonicInstant
        /// Repeats since then, not said yet.
        var unsaid = 0
    }

    private let interval: Duration
    private let clock: @Sendable () -> MonotonicInstant
    /// In the order they were first said (so that summaries due together come in that order).
    private var entries: [Entry] = []

    /// - Parameters:
    ///   - interval: at most one "repeated" line per message in this time.
    ///   - clock: now (`MonotonicInstant.now`, or a script in tests).
    public init(interval: Duration = defaultInterval, clock: @escaping @Sendable () -> MonotonicInstant) {
        self.interval = interval
        self.clock = clock
    }

    /// The lines to write now for `text`, in order: summaries of other messages that are due,
    /// then `text` itself, its summary, or nothing.
    public mutating func lines(for text: String) -> [String] {
        let now = clock()
        var lines: [String] = []
        for i in entries.indices where entries[i].text != text && entries[i].unsaid > 0 && isDue(entries[i], now) {
            lines.append(summary(&entries[i], now: now))
        }
        if let i = entries.firstIndex(where: { $0.text == text }) {
            guard isDue(entries[i], now) else {
                entries[i].unsaid += 1
                return lines
            }
            if entries[i].unsaid == 0 {
                entries[i].saidAt = now
                lines.append(text)
            } else {
                entries[i].unsaid += 1
                lines.append(summary(&entries[i], now: now))
            }
            return lines
        }
        if entries.count >= Self.capacity, let oldest = entries.indices.min(by: { entries[$0].saidAt < entries[$1].saidAt }) {
            if entries[oldest].unsaid > 0 { lines.append(summary(&entries[oldest], now: now)) }
            entries.remove(at: oldest)
        }
        entries.append(Entry(text: text, saidAt: now))
        lines.append(text)
        return lines
    }

    /// At exit: one "repeated" line for each message with repeats not said yet.
    public mutating func finish() -> [String] {
        let now = clock()
        var lines: [String] = []
        for i in entries.indices where entries[i].unsaid > 0 { lines.append(summary(&entries[i], now: now)) }
        return lines
    }

    private func isDue(_ entry: Entry, _ now: MonotonicInstant) -> Bool { now - entry.saidAt >= interval }

    /// "motet: repeated N times in the last S s: TEXT" (TEXT without its own `motet: `), and the
    /// count starts again.
    private func summary(_ entry: inout Entry, now: MonotonicInstant) -> String {
        let seconds = max(1, Int64((now - entry.saidAt).inSeconds.rounded()))
        let text = entry.text.hasPrefix("motet: ") ? String(entry.text.dropFirst("motet: ".count)) : entry.text
        let times = entry.unsaid == 1 ? "once" : "\(entry.unsaid) times"
        entry.saidAt = now
        entry.unsaid = 0
        return "motet: repeated \(times) in the last \(seconds) s: \(text)"
    }
}
