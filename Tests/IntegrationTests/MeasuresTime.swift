import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// For a test (or suite) whose assertion is a measurement of time or of wake-ups: a latency
    /// bound, a count of context switches. Under a sanitizer (`MOTET_SANITIZER`, set by
    /// `make test-tsan` and `make test-asan`) the player runs several times slower and the
    /// sanitizer's own thread wakes it, so the number means nothing there: such a test runs in the
    /// debug pass (`make test-unit`) only, and the sanitizer pass reports it as skipped, with this
    /// reason. Tests/run-suite.sh also runs these suites after the others, alone (TIMING_SUITES).
    static var measuresTime: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil,
            "measures time or wake-ups, which mean nothing under a sanitizer: the debug pass (make test-unit) runs it")
    }
}
