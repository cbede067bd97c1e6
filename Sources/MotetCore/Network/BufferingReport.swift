import MotetSystem

/// The news (`NetworkNotice.buffering`) that says why a stream buffers when the connection is slower than the stream: the
/// listener would otherwise see a stall and no reason (a 1 kB/s server: 30 s of nothing, then
/// seconds of sound between long stalls). Guarded by the stream's lock: the network thread adds
/// what arrives and, while the reader waits for the pre-buffer, asks for the line; the reader says
/// when it is served.
struct BufferingReport {
    /// A wait for the pre-buffer this long is worth the line…
    static let wait: Duration = .seconds(3)
    /// … or this long while the stream's need is unknown (the first pre-buffer is reckoned at a
    /// guessed bit rate, which a quiet station may take a while to fill at its own pace).
    static let unknownNeedWait: Duration = .seconds(10)
    /// … at most once in this long (but the first line that knows what the stream needs is said).
    static let every: Duration = .seconds(60)

    private var arrivals = ArrivalRate()
    /// Since when the reader waits for the pre-buffer (nil while the stream flows).
    private var waitingSince: MonotonicInstant?
    private var lastLine: MonotonicInstant?
    private var lastLineKnewNeed = false

    /// A new connection (a reconnection, a seek): its speed and the wait for it start over, so
    /// that the time it was away counts neither as waiting nor as slowness.
    mutating func connected(at now: MonotonicInstant) {
        arrivals = ArrivalRate()
        if waitingSince != nil { waitingSince = now }
    }

    /// `count` bytes of the body arrived.
    mutating func arrived(_ count: Int, at now: MonotonicInstant) { arrivals.add(count, at: now) }

    /// The reader is served: the wait is over.
    mutating func flowing() { waitingSince = nil }

    /// The reader waits for the pre-buffer. When it has waited a while and bytes come, but slower
    /// than the stream needs (`needsBitsPerSecond`, what it takes as it plays; nil while unknown),
    /// the notice that says so. Nil when nothing comes at all: that is a loss, said when it times out.
    mutating func waiting(at now: MonotonicInstant, needsBitsPerSecond: Int?, prebuffer: Duration) -> NetworkNotice? {
        guard let since = waitingSince else {
            waitingSince = now
            return nil
        }
        let need = needsBitsPerSecond.map { Double($0) / 8 }
        guard now - since >= (need == nil ? Self.unknownNeedWait : Self.wait), let rate = arrivals.bytesPerSecond(at: now),
            rate > 0
        else { return nil }
        if let need, rate >= need { return nil }
        if let last = lastLine, now - last < Self.every, lastLineKnewNeed || need == nil { return nil }
        lastLine = now
        lastLineKnewNeed = need != nil
        return .buffering(givesBytesPerSecond: rate, needsBytesPerSecond: need, prebuffer: prebuffer)
    }
}
