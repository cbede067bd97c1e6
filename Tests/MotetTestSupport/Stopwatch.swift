import Glibc

/// Seconds since it was made, on `CLOCK_MONOTONIC`: every duration and timeout in the tests. Not
/// `Date()`, the wall clock, which the system may step: on the 2-core CI machine a 4 s track
/// "took" 7.9 s by `Date()` in a test that Swift Testing timed at 4.9 s, and the bound failed.
public struct Stopwatch: Sendable {
    private let start: Int64

    public init() { start = Self.nanos() }

    /// Seconds since `init`.
    public var seconds: Double { Double(Self.nanos() - start) / 1e9 }

    private static func nanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
