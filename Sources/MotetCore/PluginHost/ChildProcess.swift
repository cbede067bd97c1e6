#if canImport(Glibc)
import Glibc
#endif

/// Starts helper processes with `posix_spawn` (never `fork`: the player has Swift runtime threads):
/// the `--inspect-plugin` child of `--list-plugins` and the plugin host processes.
enum ChildProcess {
    /// Starts `executable` with `arguments` (the first is argv[0]). Each pair of `descriptors`
    /// (parent's descriptor, child's number) is duplicated into the child. (The player opens its
    /// own descriptors close-on-exec; `motet-plugin-host` also closes any other it inherits.) The child starts with no blocked signals and SIGPIPE at its default, and
    /// with the environment as it is, except the Swift runtime's backtracer, which is off: a
    /// plugin crashing in a child is reported in one line, not in a screenful on standard error.
    /// Returns the child's pid, or why it could not start.
    static func spawn(
        _ executable: String, _ arguments: [String], descriptors: [(Int32, Int32)], environment extra: [String] = []
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (from, to) in descriptors { posix_spawn_file_actions_adddup2(&actions, from, to) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var environment: [UnsafeMutablePointer<CChar>?] = (["SWIFT_BACKTRACE=enable=no"] + extra).map { strdup($0) }
        let replaced = ["SWIFT_BACKTRACE="] + extra.compactMap { $0.split(separator: "=").first.map { $0 + "=" } }
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if !replaced.contains(where: { text.hasPrefix($0) }) { environment.append(strdup(entry)) }
            index += 1
        }
        environment.append(nil)
        defer { for p in environment { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        return result == 0 ? .success(pid) : .failure(SpawnError(errno: result))
    }

    /// posix_spawn's error.
    struct SpawnError: Error {
        var errno: Int32
        var text: String { String(cString: strerror(errno)) }
    }

    /// The directory of the Swift runtime this process runs (where `swift_retain` comes from), or
    /// nil: a Swift plugin in a process of its own that cannot find a runtime through its RUNPATH
    /// loads this one, as it would share it in motet's process.
    static let swiftRuntimeDirectory: String? = {
        // /proc/self/maps names every mapped file; dladdr is not visible from Swift.
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? ""
            guard let start = text.firstIndex(of: "/") else { continue }
            let path = text[start...]
            guard path.hasSuffix("/libswiftCore.so"), let slash = path.lastIndex(of: "/") else { continue }
            return String(path[..<slash])
        }
        return nil
    }()

    /// How a child ended, for a log line: "died of SIGABRT", "exited with status 3".
    static func describe(status: Int32) -> String {
        let signal = status & 0x7f
        if signal != 0 { return "died of \(PluginCrash.signalName(signal))" }
        return "exited with status \((status >> 8) & 0xff)"
    }

    /// Waits for `pid` to end and returns its status (retrying on EINTR).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}
