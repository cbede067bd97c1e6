import Glibc

/// The `MPRISModel` shared by the plugin's queue (writer) and the bus thread (reader), behind a
/// pthread mutex. (Not `Synchronization.Mutex`: ThreadSanitizer cannot see its Linux futexes and
/// reports false races in sanitizer builds.)
final class LockedModel: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var model = MPRISModel()

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout MPRISModel) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&model)
    }
}
