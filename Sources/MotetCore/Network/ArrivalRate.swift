import MotetSystem

/// How fast a connection brings bytes lately, for the line that says a stream buffers because the
/// connection is slower than the stream: the running total sampled about once a second, the last
/// `samples` of them. Pure: the caller gives the time (`MonotonicClock` ns).
struct ArrivalRate {
    /// Samples kept: the rate is over about this many seconds.
    static let samples = 8
    private static let second: Int64 = 1_000_000_000
    private var times: [Int64] = []
    private var totals: [Int64] = []
    private var total: Int64 = 0

    /// `count` bytes arrived at `now`.
    mutating func add(_ count: Int, at now: Int64) {
        total += Int64(count)
        if let last = times.last, now - last < Self.second { return }
        times.append(now)
        totals.append(total)
        if times.count > Self.samples {
            times.removeFirst()
            totals.removeFirst()
        }
    }

    /// Bytes a second from the oldest sample kept to `now`; nil until a second has been watched.
    func bytesPerSecond(at now: Int64) -> Double? {
        guard let first = times.first, let firstTotal = totals.first, now - first >= Self.second else { return nil }
        return Double(total - firstTotal) * 1e9 / Double(now - first)
    }

    /// "1.2 kB/s" (1000 bytes a kB, one decimal).
    static func kilobytes(perSecond bytes: Double) -> String {
        let tenths = Int((max(0, bytes) / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) kB/s"
    }
}
