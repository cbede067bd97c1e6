#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A joinable POSIX thread running a closure. Foundation's Thread is not used (memory budget).
final class PosixThread: @unchecked Sendable {
    // Written once in start(), read in join() on the same owning thread.
    private var handle = pthread_t()

    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        let rc = pthread_create(&handle, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        precondition(rc == 0, "motet: cannot start the \(name) thread (error \(rc))")
    }

    func join() { pthread_join(handle, nil) }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void, name: String) { self.run = run }
    }
}

/// A counting semaphore (sem_t): posting never blocks and takes no lock, so the sink thread may post.
final class CountingSemaphore: @unchecked Sendable {
    private let sem: UnsafeMutablePointer<sem_t>

    init() {
        sem = .allocate(capacity: 1)
        sem_init(sem, 0, 0)
    }
    deinit {
        sem_destroy(sem)
        sem.deallocate()
    }

    func post() { sem_post(sem) }

    /// Waits at most `seconds`; returns false on time-out.
    @discardableResult
    func wait(seconds: Double) -> Bool {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let whole = Int(seconds)
        ts.tv_sec += whole
        ts.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if ts.tv_nsec >= 1_000_000_000 {
            ts.tv_sec += 1
            ts.tv_nsec -= 1_000_000_000
        }
        while sem_timedwait(sem, &ts) != 0 {
            if errno == EINTR { continue }
            return false
        }
        return true
    }

    /// Takes every pending post without waiting.
    func drain() { while sem_trywait(sem) == 0 {} }
}

/// A self-pipe the control thread sleeps on: writing it never blocks and takes no lock, so any
/// thread — the sink thread included — can wake the control thread.
final class Wakeup: @unchecked Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var fds: [Int32] = [0, 0]
        let rc = pipe(&fds)
        precondition(rc == 0, "motet: cannot create a pipe (errno \(errno))")
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }
    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func signal() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)  // a full pipe already means "wake up"
    }

    /// Sleeps until signalled or `seconds` pass; clears the signal.
    func wait(seconds: Double) {
        var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, Int32(seconds * 1000))
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &buffer, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
