#if canImport(Glibc)
import Glibc
#endif

/// The plugin's own thread that turns changes into events for the stream's clients, so that the
/// host's `on_event` only records the change and signals (it never encodes or sends). With no
/// client it sleeps without a deadline and is not even signalled: no client, no wake-up. With
/// clients it sends each change once (a burst of changes becomes one event with the last
/// state), and a keep-alive comment after `WebLimits.keepAliveSeconds` without one.
final class Broadcaster: @unchecked Sendable {
    // Unchecked: `changed`, `clients` and `stopping` are only touched under `mutex`; `thread` only
    // by the owner; the closures are immutable.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var changed = false
    private var clients = 0
    private var stopping = false
    private var thread: pthread_t?
    private let frame: @Sendable () -> [UInt8]
    private let send: @Sendable ([UInt8]) -> Void

    static let keepAlive = Array(": keep-alive\n\n".utf8)

    /// `frame` makes the event with the current state; `send` hands bytes to every client.
    init(frame: @escaping @Sendable () -> [UInt8], send: @escaping @Sendable ([UInt8]) -> Void) {
        self.frame = frame
        self.send = send
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

    /// The state changed: send it to the clients, if there are any.
    func stateChanged() {
        pthread_mutex_lock(mutex)
        if clients > 0 {
            changed = true
            pthread_cond_signal(condition)
        }
        pthread_mutex_unlock(mutex)
    }

    /// The number of clients changed (the keep-alive runs only while there are some).
    func clientsChanged(_ count: Int) {
        pthread_mutex_lock(mutex)
        let wasIdle = clients == 0
        clients = count
        if wasIdle && count > 0 { pthread_cond_signal(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Starts the thread; false when the system refuses one.
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var t = pthread_t()
        let status = pthread_create(&t, nil, { raw in
            Unmanaged<Broadcaster>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Broadcaster>.fromOpaque(context).release()
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
        Self.nameThisThread("web-broadcast")
        var lastSent = Self.now()
        pthread_mutex_lock(mutex)
        while !stopping {
            if changed {
                changed = false
                pthread_mutex_unlock(mutex)
                send(frame())
                lastSent = Self.now()
                pthread_mutex_lock(mutex)
                continue
            }
            if clients == 0 {
                pthread_cond_wait(condition, mutex)
                lastSent = Self.now()
                continue
            }
            var deadline = timespec(tv_sec: Int(lastSent.tv_sec) + Int(WebLimits.keepAliveSeconds), tv_nsec: lastSent.tv_nsec)
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT, !changed, !stopping, clients > 0 {
                pthread_mutex_unlock(mutex)
                send(Self.keepAlive)
                lastSent = Self.now()
                pthread_mutex_lock(mutex)
            }
        }
        pthread_mutex_unlock(mutex)
    }

    /// So that /proc/PID/task/*/comm (and bench/web.sh) can tell this thread's wake-ups apart.
    /// (`pthread_setname_np` is not in Swift's Glibc module; writing comm does the same.)
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private static func now() -> timespec {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t
    }
}
