import MotetSystem
/// What the player does when an isolated plugin's process fails (dies, stops taking events, or
/// breaks the framing): restart it after a back-off that grows with each failure, and after
/// ``failureLimit`` failures within ``window`` disable it for the rest of the run
/// (docs/ISOLATION.md, "Supervision").
struct PluginSupervision: Equatable {
    static let failureLimit = 3
    /// The span in which ``failureLimit`` failures disable the plugin.
    static let window: Duration = .seconds(300)
    /// The wait before the first restart; each further one waits four times longer.
    static let firstBackOff: Duration = .milliseconds(500)

    enum Decision: Equatable {
        /// Start it again after this wait; `failures` in the window so far.
        case restart(after: Duration, failures: Int)
        /// The limit is reached: no more restarts this run.
        case disable
    }

    /// When the failures still inside the window happened.
    private var failures: [MonotonicInstant] = []

    /// Records a failure at `now` and says what to do.
    mutating func failed(at now: MonotonicInstant) -> Decision {
        failures.removeAll { now - $0 >= Self.window }
        failures.append(now)
        guard failures.count < Self.failureLimit else { return .disable }
        var wait = Self.firstBackOff
        for _ in 1..<failures.count { wait *= 4 }
        return .restart(after: wait, failures: failures.count)
    }
}
