#if canImport(Glibc)
import Glibc
#endif

/// Takes SIGINT, SIGTERM and SIGHUP on a thread of its own (sigwait), so that stopping is an
/// ordinary command: the WAV file is finalised and the stream flushed by the normal path.
enum SignalWatcher {
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the stop signals in the calling thread and in every thread it starts afterwards.
    static func blockStopSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in stopSignals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// `handler` gets how many signals have arrived so far (a second one means "now").
    static func start(_ handler: @escaping @Sendable (Int) -> Void) {
        let box = Unmanaged.passRetained(Handler(handler)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let handler = Unmanaged<Handler>.fromOpaque(raw!).takeRetainedValue()
            var set = sigset_t()
            sigemptyset(&set)
            for s in SignalWatcher.stopSignals { sigaddset(&set, s) }
            var count = 0
            while true {
                var signal: Int32 = 0
                if sigwait(&set, &signal) == 0 {
                    count += 1
                    handler.run(count)
                }
            }
        }, box)
        pthread_detach(thread)
    }

    private final class Handler {
        let run: @Sendable (Int) -> Void
        init(_ run: @escaping @Sendable (Int) -> Void) { self.run = run }
    }
}
