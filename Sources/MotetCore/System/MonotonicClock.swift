import Glibc

/// The one monotonic clock (CLOCK_MONOTONIC) of the host, in nanoseconds, and absolute sleeps
/// against it (no drift). `monotonicMicros()` is the same clock in microseconds.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary point; never jumps.
    @inlinable public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Sleeps until the absolute time `deadline` (from `now()`), resuming after signals.
    public static func sleep(until deadline: Int64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
