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

extension Trait where Self == ConditionTrait {
    /// For a test that runs a bundled (Swift) delegate in a plugin process of its own: under a
    /// sanitizer the delegates are instrumented and need the sanitizer's runtime, which only the
    /// player links (motet-plugin-host is plain C), so they cannot load in a process of their own.
    /// The debug pass (make test-unit) runs it.
    static var runsABundledDelegateIsolated: Self {
        .enabled(
            if: ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil,
            "an instrumented delegate cannot load in a plugin process without the sanitizer's runtime: the debug pass (make test-unit) runs it")
    }
}
