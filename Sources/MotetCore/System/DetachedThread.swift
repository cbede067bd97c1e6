#if canImport(Glibc)
import Glibc
#endif

/// Starts detached pthreads: each plugin instance gets one as its serial queue, each network
/// stream one for libcurl. Detached, because the host may have to give up on a thread stuck inside
/// a plugin (or the network), and a detached thread costs nothing when the process exits.
public enum DetachedThread {
    private final class Body {
        let run: () -> Void
        let name: String?
        init(_ run: @escaping () -> Void, name: String?) {
            self.run = run
            self.name = name
        }
    }

    /// Starts `body` on a new thread, named `name` when given. Returns false when the thread
    /// could not be created.
    @discardableResult
    public static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            if let name = body.name { DetachedThread.nameThisThread(name) }
            body.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// Names the calling thread (15 bytes at most), so that top -H, perf and
    /// /proc/PID/task/*/comm say which thread wakes. `pthread_setname_np` is not in Swift's Glibc
    /// module; writing /proc/thread-self/comm does the same.
    public static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        var bytes = Array(name.utf8.prefix(15))
        _ = write(fd, &bytes, bytes.count)
        close(fd)
    }
}
