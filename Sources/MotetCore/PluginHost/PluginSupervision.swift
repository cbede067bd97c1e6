/// What the player does when an isolated plugin's process fails (dies, stops taking events, or
/// breaks the framing): restart it after a back-off that grows with each failure, and after
/// ``failureLimit`` failures within ``window`` disable it for the rest of the run
/// (docs/ISOLATION.md, "Supervision").
struct PluginSupervision: Equatable {
    static let failureLimit = 3
    /// Seconds in which ``failureLimit`` failures disable the plugin.
    static let window: Double = 300
    /// The wait before the first restart; each further one waits four times longer.
    static let firstBackOff: Double = 0.5

    enum Decision: Equatable {
        /// Start it again after this many seconds; `failures` in the window so far.
        case restart(afterSeconds: Double, failures: Int)
        /// The limit is reached: no more restarts this run.
        case disable
    }

    /// Monotonic times (seconds) of the failures still inside the window.
    private var failures: [Double] = []

    /// Records a failure at monotonic time `now` (seconds) and says what to do.
    mutating func failed(at now: Double) -> Decision {
        failures.removeAll { now - $0 >= Self.window }
        failures.append(now)
        guard failures.count < Self.failureLimit else { return .disable }
        var wait = Self.firstBackOff
        for _ in 1..<failures.count { wait *= 4 }
        return .restart(afterSeconds: wait, failures: failures.count)
    }
}
