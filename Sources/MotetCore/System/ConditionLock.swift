#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with one condition variable on `CLOCK_MONOTONIC` (`Synchronization.Mutex` has
/// no condition): the serial queues of the plugin instances and the network streams wait on it.
/// Host code only ever holds it for a few instructions; no plugin code runs while it is held.
public final class ConditionLock: @unchecked Sendable {
    // Unchecked: it is the synchronisation itself, pthread objects the compiler cannot see.
    // Heap-allocated so the pthread objects never move; freed in deinit. The plugin crash guard
    // (C) locks and broadcasts them too, from a thread that must not run Swift code any more.
    public let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    public let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` with the mutex held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter. Call with the lock held.
    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits until signalled. Call with the lock held (inside `withLock`).
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits until signalled or until `deadline`. Call with the lock held. Returns false when
    /// the deadline passed.
    @discardableResult
    public func wait(until deadline: MonotonicInstant) -> Bool {
        var ts = deadline.timespec
        return pthread_cond_timedwait(condition, mutex, &ts) != ETIMEDOUT
    }
}
