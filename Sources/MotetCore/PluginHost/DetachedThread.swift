#if canImport(Glibc)
import Glibc
#endif

/// Starts detached pthreads: each plugin instance gets one as its serial queue. Detached, because
/// the host may have to give up on a thread stuck inside a plugin, and a detached thread costs
/// nothing when the process exits.
enum DetachedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread. Returns false when the thread could not be created.
    /// (Threads stay unnamed: `pthread_setname_np` is not in Swift's Glibc module.)
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
