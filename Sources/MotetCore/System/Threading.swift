#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A joinable POSIX thread running a closure. Foundation's Thread is not used (memory budget).
package final class PosixThread: @unchecked Sendable {
    // Written once in start(), read in join() on the same owning thread.
    private var handle = pthread_t()

    package init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        let rc = pthread_create(&handle, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            PosixThread.nameThisThread(body.name)
            body.run()
            return nil
        }, box)
        precondition(rc == 0, "motet: cannot start the \(name) thread (error \(rc))")
    }

    package func join() { pthread_join(handle, nil) }

    /// Names the calling thread (`DetachedThread.nameThisThread`).
    package static func nameThisThread(_ name: String) { DetachedThread.nameThisThread(name) }

    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(_ run: @escaping @Sendable () -> Void, name: String) {
            self.run = run
            self.name = name
        }
    }
}

/// A counting semaphore (sem_t): posting never blocks and takes no lock, so the sink thread may post.
package final class CountingSemaphore: @unchecked Sendable {
    // Unchecked: a sem_t is made to be shared between threads; only its address is stored.
    private let sem: UnsafeMutablePointer<sem_t>

    package init() {
        sem = .allocate(capacity: 1)
        sem_init(sem, 0, 0)
    }
    deinit {
        sem_destroy(sem)
        sem.deallocate()
    }

    package func post() { sem_post(sem) }

    /// Waits at most `span`; returns false on time-out.
    @discardableResult
    package func wait(for span: Duration) -> Bool {
        var ts = realtimeDeadline(after: span)
        while sem_timedwait(sem, &ts) != 0 {
            if errno == EINTR { continue }
            return false
        }
        return true
    }

    /// Takes every pending post without waiting.
    package func drain() { while sem_trywait(sem) == 0 {} }
}

/// What the control thread sleeps on: a self-pipe (`WakeupPipe`), so any thread — the sink
/// thread included — can wake it without a lock.
package final class Wakeup: Sendable {
    package init() {}

    private let pipe = WakeupPipe()

    package func signal() { pipe.signal() }

    /// Sleeps until signalled or until `deadline` (nil: none, an hour at a time); clears the signal.
    package func wait(until deadline: MonotonicInstant?) {
        pipe.sleep(until: deadline ?? .now() + .seconds(3600))
    }
}

/// The handshake that stops a worker thread at a safe point (to flush, seek or stop) and lets it
/// go again, with its quit flag. Only the control thread parks and releases; the worker polls.
package final class WorkerGate: Sendable {
    package init() {}

    private let parkRequested = Atomic<Bool>(false)
    private let parked = Atomic<Bool>(false)
    private let quitting = Atomic<Bool>(false)
    private let resume = CountingSemaphore()

    package var isQuitting: Bool { quitting.load(ordering: .acquiring) }
    package var parkIsRequested: Bool { parkRequested.load(ordering: .acquiring) }
    /// Worker: a park or quit is pending; stop what you are doing and come back to the loop.
    package var mustStop: Bool { parkIsRequested || isQuitting }

    /// Worker: waits, parked, until released or quit. `announce` runs once parked.
    package func parkHere(announce: () -> Void = {}) {
        parked.store(true, ordering: .releasing)
        announce()
        while parkIsRequested && !isQuitting { resume.wait(for: .milliseconds(500)) }
        parked.store(false, ordering: .releasing)
    }

    /// Worker: naps until woken (`wake`) or `span` passes.
    package func nap(for span: Duration) { resume.wait(for: span) }

    /// Control: ends a nap (a worker that is not napping naps no more than it must next time:
    /// every nap's caller looks again at why it napped).
    package func wake() { resume.post() }

    /// Worker, when its loop ends: counts as parked for good.
    package func markExited() { parked.store(true, ordering: .releasing) }

    /// Control: asks the worker to park and waits until it has, calling `nudge` (which must make a
    /// blocked worker return) every millisecond meanwhile.
    package func park(nudge: () -> Void) {
        parkRequested.store(true, ordering: .sequentiallyConsistent)
        resume.post()
        while !parked.load(ordering: .acquiring) {
            nudge()
            usleep(1000)
        }
    }

    /// Control: lets a parked worker go on.
    package func release() {
        parkRequested.store(false, ordering: .sequentiallyConsistent)
        resume.post()
    }

    /// Control: ends the worker's loop.
    package func quit() {
        quitting.store(true, ordering: .sequentiallyConsistent)
        release()
    }
}
