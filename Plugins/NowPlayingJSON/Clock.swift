#if canImport(Glibc)
import Glibc
#endif

/// The two clocks the files relate: the host stamps samples with CLOCK_MONOTONIC, readers
/// (scripts, bars) compare with the wall clock, so the files carry Unix time.
package enum Clock {
    package static func monotonicMicros() -> Int64 { micros(CLOCK_MONOTONIC) }
    package static func wallMicros() -> Int64 { micros(CLOCK_REALTIME) }

    /// The wall-clock time of a CLOCK_MONOTONIC instant (microseconds).
    package static func wallMicros(ofMonotonic instant: Int64) -> Int64 {
        wallMicros() - (monotonicMicros() - instant)
    }

    private static func micros(_ id: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
