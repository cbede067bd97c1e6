#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetSystem

/// `motet --list-plugins` looks at each plugin file in a short-lived child process: loading a file
/// runs its code (constructors, the entry function), and one that crashes or aborts must end only
/// its child, not the listing.
///
/// The child is motet itself (`/proc/self/exe`, started with `posix_spawn`: no `fork` of a process
/// with Swift runtime threads) with the hidden arguments `--inspect-plugin NAME FILE yes|no` (the
/// last: whether unsafe permissions are allowed). It writes the file's listing entry, a NUL byte,
/// then one `KEY<TAB>KIND` line per option the plugin describes, to its standard output (a pipe),
/// and exits 0 when the file can load, 3 when it cannot. The parent reads that; a child killed by
/// a signal, or silent for ``timeout``, is "cannot load" with what happened.
public enum PluginInspection {
    /// The hidden first argument.
    public static let flag = "--inspect-plugin"
    /// How long one file may take to load before its child is killed.
    public static let timeout: Duration = .seconds(20)

    private static let cannotLoadStatus: Int32 = 3

    /// The child's side: `arguments` are what follows ``flag``. Returns the exit status.
    public static func runChild(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3 else { return 64 }
        // A plugin that crashes here should not leave a core file behind.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        let found = PluginHost.inspect(name: arguments[0], file: arguments[1], allowUnsafePermissions: arguments[2] == "yes")
        var out = found.text + "\u{0}"
        for option in found.options { out += "\(option.key)\t\(option.kind.rawValue)\n" }
        writeAll(1, Array(out.utf8))
        return found.loadable ? 0 : cannotLoadStatus
    }

    /// The parent's side: an `inspect` for ``PluginHost/listingAndOptions(searchPath:allowUnsafePermissions:inspect:)``
    /// that runs each file in a child of `executable`.
    public static func inChild(executable: String, allowUnsafePermissions: Bool)
        -> (_ name: String, _ file: String) -> PluginHost.Inspection
    {
        { name, file in
            inspect(name: name, file: file, executable: executable, allow: allowUnsafePermissions)
        }
    }

    private static func inspect(name: String, file: String, executable: String, allow: Bool) -> PluginHost.Inspection {
        func failed(_ reason: String) -> PluginHost.Inspection {
            PluginHost.Inspection(text: PluginHost.cannotLoad(name, file, reason), options: [], loadable: false)
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return failed("cannot inspect it: \(String(cString: strerror(errno)))") }
        // Close-on-exec, so that only the child's standard output (a dup) stays open in it.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let spawned = ChildProcess.spawn(executable, [executable, flag, name, file, allow ? "yes" : "no"], descriptors: [(fds[1], 1)])
        close(fds[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(fds[0])
            return failed("cannot inspect it: \(error.text)")
        }
        let (bytes, timedOut) = readAll(fds[0], timeout: timeout)
        close(fds[0])
        if timedOut { kill(pid, SIGKILL) }
        let status = ChildProcess.wait(pid)
        if timedOut {
            return failed("loading it did not finish in \(timeout.secondsText) s; it is not used")
        }
        let signal = status & 0x7f
        if signal != 0 {
            return failed(
                "crashed while being loaded with \(PluginCrash.signalName(signal)); it is not used"
                    + " (report it to the plugin's author, or remove the file)")
        }
        let exitStatus = (status >> 8) & 0xff
        guard let nul = bytes.firstIndex(of: 0), exitStatus == 0 || exitStatus == cannotLoadStatus else {
            return failed("cannot inspect it (the inspecting motet exited with status \(exitStatus))")
        }
        let text = String(decoding: bytes[..<nul], as: UTF8.self)
        var options: [DescribedPluginOption] = []
        for line in bytes[(nul + 1)...].split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: "\t")).map { String(decoding: $0, as: UTF8.self) }
            if fields.count == 2, let kind = DescribedPluginOption.Kind(rawValue: fields[1]) {
                options.append(DescribedPluginOption(plugin: name, key: fields[0], kind: kind))
            }
        }
        return PluginHost.Inspection(text: text, options: options, loadable: exitStatus == 0)
    }

    /// Everything `fd` gives until end of file, or what came before `timeout` passed.
    private static func readAll(_ fd: Int32, timeout: Duration) -> (bytes: [UInt8], timedOut: Bool) {
        let deadline = MonotonicInstant.now() + timeout
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if MonotonicInstant.now() >= deadline { return (bytes, true) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, min(deadline.pollMillisecondsFromNow, 1000))
            if ready < 0 && errno != EINTR { return (bytes, false) }
            if ready <= 0 { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes += chunk[..<n]
            } else if n == 0 || errno != EINTR {
                return (bytes, false)
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
