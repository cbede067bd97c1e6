import Glibc
// The floor of any Swift program: the runtime and Glibc, nothing else; prints its peak RSS.
let f = fopen("/proc/self/status", "r")
var line = [CChar](repeating: 0, count: 256)
while fgets(&line, 256, f) != nil { let s = String(cString: line); if s.hasPrefix("VmHWM") { print(s, terminator: "") } }
