import Glibc

/// Time in types: a moment is a `MonotonicInstant`, a span is a `Swift.Duration`, and an amount
/// of audio is frames at a rate. Every conversion between them and the integers that C APIs,
/// atomics and the plugin ABI use (nanoseconds, microseconds, milliseconds, `timespec`) is in
/// this file, so that microseconds, nanoseconds and frames cannot be mixed by hand elsewhere.

/// A moment on the host's one monotonic clock (CLOCK_MONOTONIC): never jumps, and
/// means nothing across machines or boots.
@frozen public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since the clock's arbitrary origin: what atomics hold.
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The moment in microseconds (the plugin ABI's unit for a monotonic time) and back.
    @inlinable public init(microseconds: Int64) { nanoseconds = microseconds * 1000 }
    @inlinable public var microseconds: Int64 { nanoseconds / 1000 }

    /// Now: the host's one monotonic clock (CLOCK_MONOTONIC), which never jumps.
    @inlinable public static func now() -> MonotonicInstant {
        var ts = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// This moment as a `timespec` on CLOCK_MONOTONIC: for `pthread_cond_timedwait` on a condition
    /// set to that clock, and `clock_nanosleep`.
    public var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    /// Sleeps until this moment, resuming after signals (an absolute sleep: no drift).
    public func sleepUntil() {
        var ts = timespec
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }

    /// The milliseconds `poll` should wait from now to reach this moment: rounded up, so that a
    /// poll does not return just before it; 0 when it has passed.
    public var pollMillisecondsFromNow: Int32 {
        Int32(clamping: (max(0, nanoseconds - MonotonicInstant.now().nanoseconds) + 999_999) / 1_000_000)
    }

    @inlinable public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: MonotonicInstant, d: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: a.nanoseconds + d.nanoseconds)
    }
    @inlinable public static func - (a: MonotonicInstant, d: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: a.nanoseconds - d.nanoseconds)
    }
    @inlinable public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Duration { .nanoseconds(a.nanoseconds - b.nanoseconds) }

    /// Frames at `rate` a second from `earlier` to this moment (truncated), through a `Double`:
    /// no product to overflow however long the span (a heard position extrapolated, a paced
    /// clock), and cheap enough for the sink thread (a `Duration` takes 128-bit arithmetic).
    @inlinable public func frames(since earlier: MonotonicInstant, rate: Int64) -> Int64 {
        Int64(Double(nanoseconds - earlier.nanoseconds) * Double(rate) / 1_000_000_000)
    }

    /// This moment plus `nanoseconds`: for the sink thread's integer spans.
    @inlinable public func advanced(byNanoseconds nanoseconds: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// Nanoseconds from `earlier` to this moment: for the sink thread's integer spans.
    @inlinable public func nanoseconds(since earlier: MonotonicInstant) -> Int64 { nanoseconds - earlier.nanoseconds }
}

/// Monotonic time in microseconds (`CLOCK_MONOTONIC`): the plugin ABI's clock, that of
/// `NowPlaying.elapsedAtMicros` and of the events' times.
public func monotonicMicros() -> Int64 { MonotonicInstant.now().microseconds }

/// Wall-clock time in microseconds since the Unix epoch (`CLOCK_REALTIME`), for timestamps that
/// leave the process (a scrobbler's "listened at").
public func unixMicros() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// A deadline `span` from now on CLOCK_REALTIME, as `sem_timedwait` wants it (POSIX semaphores
/// know no other clock).
public func realtimeDeadline(after span: Duration) -> timespec {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    let total = Int64(ts.tv_nsec) + max(0, span.nanoseconds)
    ts.tv_sec += Int(total / 1_000_000_000)
    ts.tv_nsec = Int(total % 1_000_000_000)
    return ts
}

/// The sink thread's integer conversions between frames and nanoseconds (see `DrySpell`).
public enum FrameTime {
    /// Nanoseconds that `frames` last at `rate` (truncated).
    @inlinable public static func nanoseconds(frames: Int64, rate: Int) -> Int64 { frames * 1_000_000_000 / Int64(max(1, rate)) }

    /// Nanoseconds that `frames` last at `rate`, rounded (the null output's pacing).
    @inlinable public static func nanosecondsRounded(frames: Int64, rate: Int) -> Int64 {
        Int64((Double(frames) * 1_000_000_000 / Double(rate)).rounded())
    }

    /// Frames at `rate` in `nanoseconds` (truncated).
    @inlinable public static func frames(nanoseconds: Int64, rate: Int) -> Int64 { nanoseconds * Int64(rate) / 1_000_000_000 }

    /// Microseconds that `frames` last at `rate` (truncated), saturating instead of trapping: the
    /// decoder's positions come from files, and a damaged granule position can be any number.
    public static func microsecondsSaturating(frames: Int64, rate: Int64) -> Int64 {
        guard rate > 0 else { return 0 }
        let (whole, rest) = frames.quotientAndRemainder(dividingBy: rate)
        let (wholeMicros, overflow) = whole.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return frames < 0 ? Int64.min : Int64.max }
        return saturatingAdd(wholeMicros, rest * 1_000_000 / rate)
    }

    /// Frames at `rate` in `microseconds` (truncated), saturating instead of trapping.
    public static func framesSaturating(microseconds: Int64, rate: Int64) -> Int64 {
        let (whole, rest) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let (wholeFrames, overflow) = whole.multipliedReportingOverflow(by: rate)
        if overflow { return microseconds < 0 ? Int64.min : Int64.max }
        return saturatingAdd(wholeFrames, rest * rate / 1_000_000)
    }

    /// `a + b`, saturating at the ends of `Int64` instead of trapping.
    public static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
    }
}

extension Duration {
    // The integers below come from `attoseconds` (Int128) divided by a constant, which compiles
    // to a multiplication: through `components` (a 128-bit division) each took 135 instructions
    // more, and the sink and decoder threads convert one at each wait (bench/instructions.sh).

    /// Whole nanoseconds, truncated toward zero.
    @inlinable public var nanoseconds: Int64 { Int64(truncatingIfNeeded: attoseconds / 1_000_000_000) }

    /// The span in seconds, as a `Double`: for text ("waited 1.5 s") and rates.
    @inlinable public var inSeconds: Double { Double(attoseconds) / 1e18 }

    /// The span in seconds for a message, cut (not rounded) to hundredths: "5", "0.5", "2.97".
    public var secondsText: String {
        let hundredths = max(0, microseconds) / 10_000
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The span as a clock, cut to the second: "3:07" or "1:02:03"; with `milliseconds`,
    /// "3:07.250" or "1:02:03.250". A negative span shows as zero.
    public func clockText(milliseconds: Bool = false) -> String {
        let totalMillis = max(0, self.milliseconds)
        let seconds = totalMillis / 1000
        let (h, m, s) = (seconds / 3600, (seconds / 60) % 60, seconds % 60)
        func pad(_ v: Int64, _ width: Int) -> String {
            let text = String(v)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let tail = pad(s, 2) + (milliseconds ? "." + pad(totalMillis % 1000, 3) : "")
        return h > 0 ? "\(h):\(pad(m, 2)):\(tail)" : "\(m):\(tail)"
    }

    /// Whole milliseconds, truncated toward zero (the C headers' timeouts).
    @inlinable public var milliseconds: Int64 { Int64(truncatingIfNeeded: attoseconds / 1_000_000_000_000_000) }

    /// Whole microseconds, truncated toward zero: the unit of the plugin ABI and of the decoder's
    /// positions.
    @inlinable public var microseconds: Int64 { Int64(truncatingIfNeeded: attoseconds / 1_000_000_000_000) }

    /// How long `frames` last at `rate` frames a second, to the microsecond below (as the events
    /// report it; a zero or negative rate counts as 1).
    @inlinable public static func frames(_ frames: Int64, rate: Int) -> Duration {
        .microseconds(frames * 1_000_000 / Int64(max(1, rate)))
    }

    /// The frames at `rate` that fit in this span (truncated).
    @inlinable public func frames(rate: Int64) -> Int64 { microseconds * rate / 1_000_000 }

    /// How many whole `interval`s fit in this span (for a refresh every interval).
    @inlinable public func count(of interval: Duration) -> Int64 { microseconds / max(1, interval.microseconds) }

    /// How many `interval`s it takes to cover this span, the last one perhaps in part (rounded
    /// up, to the microsecond).
    @inlinable public func countRoundedUp(of interval: Duration) -> Int64 {
        let step = max(1, interval.microseconds)
        return (microseconds + step - 1) / step
    }

    /// What is left of this span after its whole `interval`s.
    @inlinable public func remainder(after interval: Duration) -> Duration {
        .microseconds(microseconds % max(1, interval.microseconds))
    }
}
