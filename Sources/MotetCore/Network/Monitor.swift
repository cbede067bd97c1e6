#if canImport(Glibc)
import Glibc
#endif

/// A mutex with one condition variable (on the monotonic clock): what the network thread and its
/// reader share. Not `Synchronization.Mutex`, which has no condition.
final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)
    private let condition: UnsafeMutablePointer<pthread_cond_t> = .allocate(capacity: 1)

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
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside `withLock`: waits for a `broadcast`, at most `seconds` (nil: no limit).
    func wait(seconds: Double? = nil) {
        guard let seconds else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let nanos = Int(ts.tv_nsec) + Int(seconds.truncatingRemainder(dividingBy: 1) * 1e9)
        ts.tv_sec += Int(seconds) + nanos / 1_000_000_000
        ts.tv_nsec = nanos % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &ts)
    }

    func broadcast() { pthread_cond_broadcast(condition) }

    /// Monotonic seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `body` on a new detached thread named `name` (the network threads are never joined:
    /// they end on their own once told to).
    static func detach(name: String, _ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            let name: String
            init(_ body: @escaping @Sendable () -> Void, _ name: String) {
                self.body = body
                self.name = name
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body, name)).toOpaque()
        let rc = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            if fd >= 0 {
                var bytes = Array(box.name.utf8.prefix(15))
                _ = write(fd, &bytes, bytes.count)
                close(fd)
            }
            box.body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        precondition(rc == 0, "motet: cannot start the \(name) thread (error \(rc))")
    }
}
