import Glibc


/// A sleep that another thread can end: a non-blocking self-pipe, so that `signal` is lock-free,
/// never blocks and never allocates (the sink thread and a device's own threads may call it). A
/// signal that comes while nobody sleeps ends the next sleep at once. The `wakeup()` of the
/// devices that sleep by themselves (the clock-paced ones, a lost ALSA device), and the control
/// thread's `Wakeup`.
package final class WakeupPipe: @unchecked Sendable {
    // Only the immutable descriptors are shared; the kernel serialises the pipe.
    private let readEnd: Int32
    private let writeEnd: Int32

    /// A pipe, both ends non-blocking and close-on-exec.
    package init() {
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
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }

    /// The descriptor that becomes readable on `signal`, for a `poll` that also watches other
    /// descriptors (an ALSA device's); `take` consumes the signal afterwards.
    package var pollDescriptor: Int32 { readEnd }

    /// Ends the current or next `sleep`. Any thread.
    package func signal() {
        var one: UInt8 = 1
        _ = Glibc.write(writeEnd, &one, 1)  // a full pipe already means "wake up"
    }

    /// Sleeps until `deadline` (to the next millisecond) or a `signal`; returns true when
    /// signalled (the signal is consumed).
    @discardableResult
    package func sleep(until deadline: MonotonicInstant) -> Bool {
        var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, deadline.pollMillisecondsFromNow)
        return take()
    }

    /// Consumes a pending signal without sleeping; true when there was one.
    package func take() -> Bool {
        var bytes: (UInt64, UInt64) = (0, 0)
        var any = false
        while withUnsafeMutableBytes(of: &bytes, { Glibc.read(readEnd, $0.baseAddress, $0.count) }) > 0 { any = true }
        return any
    }
}
