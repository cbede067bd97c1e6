#if canImport(Glibc)
import Glibc
#endif

/// A thread that calls `tick` every `intervalMicros` until stopped; `stop()` wakes it at once and
/// joins it (the plugin contract: destroy joins every thread the plugin started).
final class RefreshTimer: @unchecked Sendable {
    // Unchecked: shared with its own thread; `stopping` is only touched under `mutex`, `tick` is
    // immutable, and `thread` is touched only by the owner.
    private let intervalMicros: Int64
    private let tick: @Sendable () -> Void
    // Heap-allocated: pthread objects must not move, and `&property` gives no stable address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var stopping = false
    private var thread: pthread_t?

    init(intervalMicros: Int64, tick: @escaping @Sendable () -> Void) {
        self.intervalMicros = intervalMicros
        self.tick = tick
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

    /// Starts the thread; false when the system refuses one.
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var t = pthread_t()
        let status = pthread_create(&t, nil, { raw in
            let timer = Unmanaged<RefreshTimer>.fromOpaque(raw!).takeRetainedValue()
            timer.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<RefreshTimer>.fromOpaque(context).release()
            return false
        }
        thread = t
        return true
    }

    /// Stops and joins the thread. Safe to call twice, and before `start`.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        if let t = thread {
            pthread_join(t, nil)
            thread = nil
        }
    }

    private func run() {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        pthread_mutex_lock(mutex)
        while !stopping {
            let next = Int64(deadline.tv_sec) * 1_000_000 + Int64(deadline.tv_nsec) / 1000 + intervalMicros
            deadline.tv_sec = Int(next / 1_000_000)
            deadline.tv_nsec = Int(next % 1_000_000) * 1000
            while !stopping, pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT {}
            if stopping { break }
            pthread_mutex_unlock(mutex)
            tick()
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }
}
