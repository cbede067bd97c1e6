import WaitingThread

/// A thread that calls `tick` every `intervalMicros` until stopped; `stop()` wakes it at once and
/// joins it (the plugin contract: destroy joins every thread the plugin started).
final class RefreshTimer: Sendable {
    private let intervalMicros: Int64
    private let tick: @Sendable () -> Void
    private let thread = WaitingThread()

    init(intervalMicros: Int64, tick: @escaping @Sendable () -> Void) {
        self.intervalMicros = intervalMicros
        self.tick = tick
    }

    deinit { stop() }

    /// Starts the thread; false when the system refuses one.
    func start() -> Bool { thread.start(name: "json-refresh") { [self] in run() } }

    /// Stops and joins the thread. Safe to call twice, and before `start`.
    func stop() { thread.stop() }

    private func run() {
        var deadline = WaitingThread.now()
        thread.lock()
        while !thread.stopping {
            let next = Int64(deadline.tv_sec) * 1_000_000 + Int64(deadline.tv_nsec) / 1000 + intervalMicros
            deadline.tv_sec = Int(next / 1_000_000)
            deadline.tv_nsec = Int(next % 1_000_000) * 1000
            while !thread.stopping, !thread.wait(until: deadline) {}
            if thread.stopping { break }
            thread.unlock()
            tick()
            thread.lock()
        }
        thread.unlock()
    }
}
