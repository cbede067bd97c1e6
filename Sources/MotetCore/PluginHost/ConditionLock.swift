#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with one condition variable on `CLOCK_MONOTONIC`: the serial queues of the
/// plugin instances wait on it. Host code only ever holds it for a few instructions; no plugin
/// code runs while it is held.
final class ConditionLock: @unchecked Sendable {
    // Unchecked: it is the synchronisation itself, pthread objects the compiler cannot see.
    // Heap-allocated so the pthread objects never move; freed in deinit. The plugin crash guard
    // (C) locks and broadcasts them too, from a thread that must not run Swift code any more.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
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
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes every waiter. Call with the lock held.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits until signalled. Call with the lock held (inside `withLock`).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits until signalled or until the monotonic time `deadlineMicros`. Call with the lock
    /// held. Returns false when the deadline passed.
    func wait(untilMonotonicMicros deadlineMicros: Int64) -> Bool {
        var deadline = timespec(
            tv_sec: Int(deadlineMicros / 1_000_000), tv_nsec: Int((deadlineMicros % 1_000_000) * 1000))
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }
}
