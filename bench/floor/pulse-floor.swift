import Glibc
// The floor of a Swift PulseAudio client: it only loads libpulse and connects a context with a
// threaded mainloop (what any player on libpulse's asynchronous API must do: no stream, no
// decoder), waits 2 s, then prints its peak RSS. Needs a PulseAudio server (PULSE_SERVER or the
// default socket); "connect: 0" means the connection was started.
typealias NewML = @convention(c) () -> OpaquePointer?
typealias StartML = @convention(c) (OpaquePointer?) -> Int32
typealias GetAPI = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
typealias NewCtx = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> OpaquePointer?
typealias Connect = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?) -> Int32
typealias Lock = @convention(c) (OpaquePointer?) -> Void
let h = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL)!
func sym<T>(_ n: String, _ t: T.Type) -> T { unsafeBitCast(dlsym(h, n)!, to: t) }
let ml = sym("pa_threaded_mainloop_new", NewML.self)()
let api = sym("pa_threaded_mainloop_get_api", GetAPI.self)(ml)
let lock = sym("pa_threaded_mainloop_lock", Lock.self), unlock = sym("pa_threaded_mainloop_unlock", Lock.self)
_ = sym("pa_threaded_mainloop_start", StartML.self)(ml)
lock(ml)
let ctx = sym("pa_context_new", NewCtx.self)(api, "floor")
print("connect:", sym("pa_context_connect", Connect.self)(ctx, nil, 0, nil))
unlock(ml)
sleep(2)
let f = fopen("/proc/self/status", "r")
var line = [CChar](repeating: 0, count: 256)
while fgets(&line, 256, f) != nil {
    let s = String(cString: line)
    if s.hasPrefix("VmHWM") || s.hasPrefix("RssFile") || s.hasPrefix("RssAnon") { print(s, terminator: "") }
}
