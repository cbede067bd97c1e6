#if canImport(Glibc)
import Glibc
#endif

/// A delegate's own thread that sleeps on a condition variable until it is signalled or a
/// deadline (CLOCK_MONOTONIC) passes, and that `stop()` wakes and joins: the plugin contract says
/// destroy joins every thread the plugin started. The json delegate's refresh timer and the web
/// delegate's broadcaster are such threads.
///
/// What the thread shares with others is guarded by `lock()`/`unlock()`; `stopping`, `signal()`
/// and `wait(until:)` are used with the lock held.
package final class WaitingThread: @unchecked Sendable {
    // Unchecked: `stopping` is only touched under `mutex`, `thread` only by the owner.
    // Heap-allocated: pthread objects must not move, and `&property` gives no stable address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    /// Set by `stop()`: the thread's body returns when it sees it (read it with the lock held).
    package private(set) var stopping = false

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes the thread from `wait` (with the lock held).
    package func signal() { pthread_cond_signal(condition) }

    /// Sleeps (with the lock held, which it releases meanwhile) until signalled or, when given,
    /// `deadline` passes; true when it passed. A wake-up may also be spurious: check your state.
    package func wait(until deadline: timespec?) -> Bool {
        guard var deadline else {
            pthread_cond_wait(condition, mutex)
            return false
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT
    }

    /// Starts the thread, named `name` (15 bytes at most, for /proc/PID/task/*/comm), running
    /// `body` until it returns; false when the system refuses a thread.
    package func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var t = pthread_t()
        let status = pthread_create(&t, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            WaitingThread.nameThisThread(body.name)
            body.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        thread = t
        return true
    }

    /// Stops and joins the thread. Safe to call twice, and before `start`.
    package func stop() {
        lock()
        stopping = true
        signal()
        unlock()
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    /// CLOCK_MONOTONIC now, `plusMicros` later.
    package static func now(plusMicros: Int64 = 0) -> timespec {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        let micros = Int64(t.tv_sec) * 1_000_000 + Int64(t.tv_nsec) / 1000 + plusMicros
        return timespec(tv_sec: Int(micros / 1_000_000), tv_nsec: Int(micros % 1_000_000) * 1000)
    }

    private final class Body: @unchecked Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// `pthread_setname_np` is not in Swift's Glibc module; writing comm does the same.
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
