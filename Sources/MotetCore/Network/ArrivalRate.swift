import MotetSystem

/// How fast a connection brings bytes lately, for the line that says a stream buffers because the
/// connection is slower than the stream: the running total sampled about once a second, the last
/// `samples` of them. Pure: the caller gives the time.
struct ArrivalRate {
    /// Samples kept: the rate is over about this many seconds.
    static let samples = 8
    private var times: [MonotonicInstant] = []
    private var totals: [Int64] = []
    private var total: Int64 = 0

    /// `count` bytes arrived at `now`.
    mutating func add(_ count: Int, at now: MonotonicInstant) {
        total += Int64(count)
        if let last = times.last, now - last < .seconds(1) { return }
        times.append(now)
        totals.append(total)
        if times.count > Self.samples {
            times.removeFirst()
            totals.removeFirst()
        }
    }

    /// Bytes a second from the oldest sample kept to `now`; nil until a second has been watched.
    func bytesPerSecond(at now: MonotonicInstant) -> Double? {
        guard let first = times.first, let firstTotal = totals.first, now - first >= .seconds(1) else { return nil }
        return Double(total - firstTotal) / (now - first).inSeconds
    }

    /// "1.2 kB/s" (1000 bytes a kB, one decimal).
    static func kilobytes(perSecond bytes: Double) -> String {
        let tenths = Int((max(0, bytes) / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) kB/s"
    }
}
