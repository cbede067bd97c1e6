#if canImport(Glibc)
import MotetSystem
import Glibc
#endif
import MotetPlayback

/// The one home of signal handling: every signal Motet cares about is blocked in all threads and
/// taken by one thread of its own (sigwait), so that each is an ordinary call, never code run
/// inside a signal handler.
///
/// - SIGINT, SIGTERM, SIGHUP stop: the WAV file is finalised and the stream flushed by the normal
///   path; a second one means "now".
/// - SIGTSTP (Ctrl-Z): `suspend` gives the terminal back, then the process stops itself with the
///   default action, so the shell reports it as stopped. SIGCONT (`fg`, `bg`): `resume`.
/// - SIGWINCH: `resize`.
/// - SIGTTIN, SIGTTOU are blocked and ignored: a background player that raced the shell gets EIO
///   from a read instead of being stopped, and its output never stops it.
enum SignalWatcher {
    /// What a signal asks for.
    enum Event: Sendable {
        /// The `count`-th stop signal so far.
        case stop(count: Int)
        /// The process is about to stop (Ctrl-Z).
        case suspend
        /// The process was continued.
        case resume
        /// The terminal's size changed.
        case resize
    }

    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]
    static let handledSignals = stopSignals + [SIGTSTP, SIGCONT, SIGWINCH, SIGTTIN, SIGTTOU]

    /// Blocks the handled signals in the calling thread and in every thread it starts afterwards.
    static func blockHandledSignals() {
        var set = signalSet(handledSignals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread; `handler` runs on it, one signal at a time.
    static func start(_ handler: @escaping @Sendable (Event) -> Void) {
        let box = Unmanaged.passRetained(Handler(handler)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            PosixThread.nameThisThread("motet-signals")
            let handler = Unmanaged<Handler>.fromOpaque(raw!).takeRetainedValue()
            var set = SignalWatcher.signalSet(SignalWatcher.handledSignals)
            var stops = 0
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                switch signal {
                case SIGTSTP:
                    handler.run(.suspend)
                    SignalWatcher.stopProcess()
                case SIGCONT: handler.run(.resume)
                case SIGWINCH: handler.run(.resize)
                case SIGTTIN, SIGTTOU: continue
                default:
                    stops += 1
                    handler.run(.stop(count: stops))
                }
            }
        }, box)
        pthread_detach(thread)
    }

    /// Stops the whole process with SIGTSTP's default action: raised on this thread while it is
    /// blocked, then unblocked here only, so it is delivered here and now. Blocked again after
    /// SIGCONT, which sigwait then takes.
    private static func stopProcess() {
        var set = signalSet([SIGTSTP])
        raise(SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }

    private final class Handler {
        let run: @Sendable (Event) -> Void
        init(_ run: @escaping @Sendable (Event) -> Void) { self.run = run }
    }
}
