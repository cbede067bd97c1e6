import CGIO

#if canImport(Glibc)
import Glibc
#endif

/// A GLib main loop on a thread of the plugin's own, so D-Bus signal callbacks never run on the
/// host's threads. Subscribe while `context` is pushed as thread-default (see `withContext`);
/// `stop()` quits the loop from inside and joins the thread.
final class MainLoopThread: @unchecked Sendable {
    // Unchecked: used by the owner and by the loop thread; context and loop are thread-safe GLib
    // objects, and `thread` is touched only by the owner.
    let context: OpaquePointer
    private let loop: OpaquePointer
    private var thread: pthread_t?

    init() {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        stop()
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// Runs `body` with `context` as this thread's default, so GDBus attaches what `body`
    /// subscribes to our loop.
    func withContext<R>(_ body: () -> R) -> R {
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        return body()
    }

    /// Starts the thread; false when the system refuses one.
    func start() -> Bool {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var t = pthread_t()
        let status = pthread_create(&t, nil, { raw in
            let me = Unmanaged<MainLoopThread>.fromOpaque(raw!).takeRetainedValue()
            g_main_context_push_thread_default(me.context)
            g_main_loop_run(me.loop)
            g_main_context_pop_thread_default(me.context)
            return nil
        }, retained)
        guard status == 0 else {
            Unmanaged<MainLoopThread>.fromOpaque(retained).release()
            return false
        }
        thread = t
        return true
    }

    /// Quits the loop and joins the thread. Safe to call twice, and without `start`.
    func stop() {
        guard let t = thread else { return }
        thread = nil
        // Quit from inside the loop: a g_main_loop_quit before g_main_loop_run begins would be lost.
        g_main_context_invoke(
            context,
            { data in
                g_main_loop_quit(OpaquePointer(data))
                return 0  // G_SOURCE_REMOVE
            }, UnsafeMutableRawPointer(loop))
        pthread_join(t, nil)
    }
}
