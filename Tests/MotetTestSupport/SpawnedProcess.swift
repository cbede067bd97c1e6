import Foundation
import Glibc

/// A long-running child process (a server, a FIFO reader) started with `posix_spawnp` so that it
/// inherits no file descriptor beyond stdin/stdout/stderr, with default signal handling.
///
/// Why not `Shell.start` (Foundation's `Process`)? Tests run in parallel in one process, and a
/// server spawned while another test's `Shell.run` has its output pipes open inherits their write
/// ends: that `Shell.run` then never sees end-of-file and hangs for as long as the server lives.
/// Stop it by PID with `stop()` (SIGTERM, then SIGKILL) or `signal(_:)`.
public final class SpawnedProcess: @unchecked Sendable {
    /// The child's process id.
    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `argv` (looked up in PATH) with the test process's environment plus `environment`,
    /// stdin from /dev/null, stdout and stderr to files (or /dev/null when nil). `appendOutput`
    /// appends to the stdout file instead of truncating it.
    public init(
        _ argv: [String], environment: [String: String] = [:], stdout: String? = nil, appendOutput: Bool = false,
        stderr: String? = nil
    ) throws {
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | (appendOutput ? O_APPEND : O_TRUNC), 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        Self.closeFrom3(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, argv[0], &actions, &attributes, cArgs, cEnv)
        guard rc == 0 else { throw TestError.failed("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Swift's Glibc module hides.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    deinit { stop() }

    /// Whether the child is still running (reaps it when it has ended).
    public var isRunning: Bool {
        lock.withLock {
            if exitStatus != nil { return false }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) {
                exitStatus = status
                return false
            }
            return true
        }
    }

    /// The exit code once the child has ended normally (nil while it runs, or if a signal killed it).
    public var exitCode: Int32? {
        guard !isRunning else { return nil }
        return lock.withLock {
            guard let status = exitStatus, status & 0x7f == 0 else { return nil }
            return (status >> 8) & 0xff
        }
    }

    /// How the child ended, for a message ("status 3", "signal 11, Segmentation fault"); nil while
    /// it runs.
    public var ending: String? {
        guard !isRunning, let status = lock.withLock({ exitStatus }) else { return nil }
        if let code = exitCode { return "status \(code)" }
        let signal = status & 0x7f
        return "signal \(signal), " + (strsignal(signal).map { String(cString: $0) } ?? "unknown")
    }

    /// Sends `signal` to the child (if it still runs).
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds for the child to end; true when it has.
    @discardableResult
    public func wait(timeout: Double) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { !isRunning }) ?? false
    }

    /// Sends SIGTERM and waits up to `timeout` seconds for the child to end: the seconds it took,
    /// or nil when it still runs.
    public func secondsToQuit(timeout: Double) -> Double? {
        let asked = Stopwatch()
        signal(SIGTERM)
        return wait(timeout: timeout) ? asked.seconds : nil
    }

    /// SIGTERM, then SIGKILL after `timeout` seconds; returns once the child is reaped.
    public func stop(timeout: Double = 5) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if !wait(timeout: timeout) {
            kill(pid, SIGKILL)
            wait(timeout: 5)
        }
    }
}
