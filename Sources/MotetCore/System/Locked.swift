#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex, shareable across threads and capturable by closures.
///
/// Used instead of `Synchronization.Mutex`, whose Linux implementation (priority-inheritance
/// futexes) ThreadSanitizer cannot see: under contention it reports false data races, and
/// `make test-tsan` must stay clean. Never hold it across a call into a plugin or a blocking call.
public final class Locked<Value>: @unchecked Sendable {
    // Unchecked: the pthread mutex guards `value`, which the compiler cannot see.
    // Heap-allocated so the pthread object never moves; freed in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the mutex held.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
