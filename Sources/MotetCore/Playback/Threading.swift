#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
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
        wait(timeoutMillis: Int32(seconds * 1000))
    }

    /// Sleeps until signalled or until `deadline` (monotonic µs; nil: no deadline); clears the signal.
    func wait(untilMicros deadline: Int64?) {
        guard let deadline else { return wait(timeoutMillis: -1) }
        let left = max(0, deadline - monotonicMicros())
        wait(timeoutMillis: Int32(clamping: (left + 999) / 1000))
    }

    /// Sleeps until signalled or `timeoutMillis` pass (-1: no time-out); clears the signal.
    private func wait(timeoutMillis: Int32) {
        var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, timeoutMillis)
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &buffer, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// The handshake that stops a worker thread at a safe point (to flush, seek or stop) and lets it
/// go again, with its quit flag. Only the control thread parks and releases; the worker polls.
final class WorkerGate: Sendable {
    private let parkRequested = Atomic<Bool>(false)
    private let parked = Atomic<Bool>(false)
    private let quitting = Atomic<Bool>(false)
    private let resume = CountingSemaphore()

    var isQuitting: Bool { quitting.load(ordering: .acquiring) }
    var parkIsRequested: Bool { parkRequested.load(ordering: .acquiring) }
    /// Worker: a park or quit is pending; stop what you are doing and come back to the loop.
    var mustStop: Bool { parkIsRequested || isQuitting }

    /// Worker: waits, parked, until released or quit. `announce` runs once parked.
    func parkHere(announce: () -> Void = {}) {
        parked.store(true, ordering: .releasing)
        announce()
        while parkIsRequested && !isQuitting { resume.wait(seconds: 0.5) }
        parked.store(false, ordering: .releasing)
    }

    /// Worker: naps until woken (`wake`) or `seconds` pass.
    func nap(seconds: Double) { resume.wait(seconds: seconds) }

    /// Worker, when its loop ends: counts as parked for good.
    func markExited() { parked.store(true, ordering: .releasing) }

    /// Control: asks the worker to park and waits until it has, calling `nudge` (which must make a
    /// blocked worker return) every millisecond meanwhile.
    func park(nudge: () -> Void) {
        parkRequested.store(true, ordering: .sequentiallyConsistent)
        resume.post()
        while !parked.load(ordering: .acquiring) {
            nudge()
            usleep(1000)
        }
    }

    /// Control: lets a parked worker go on.
    func release() {
        parkRequested.store(false, ordering: .sequentiallyConsistent)
        resume.post()
    }

    /// Control: ends the worker's loop.
    func quit() {
        quitting.store(true, ordering: .sequentiallyConsistent)
        release()
    }
}
