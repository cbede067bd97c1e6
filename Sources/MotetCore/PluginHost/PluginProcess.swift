#if canImport(Glibc)
import Glibc
#endif
import CPluginWire
import MotetEvents
import MotetPluginABI
import MotetSystem

/// One plugin host process (`motet-plugin-host`, Sources/motet-plugin-host/main.c) and the
/// player's end of its socket: the process loads one plugin file and runs one instance of it
/// (docs/ISOLATION.md). Frames are read by one thread at a time; writes are whole frames, from any
/// thread.
final class PluginProcess: @unchecked Sendable {
    // Unchecked: `pid` and `connection` are written once in init; the C connection serialises writes.
    let pid: pid_t
    private let connection: UnsafeMutablePointer<motet_wire_connection>
    /// The read end of the process's note pipe (non-blocking): "M" when it died of its memory limit.
    private let note: Int32
    /// The status once the process was reaped (only once: a pid may be reused after that).
    private let status = Locked<Int32?>(nil)

    /// What the host process needs to run one instance.
    struct Launch: Sendable {
        var executable: String
        var file: String
        var instanceName: String
        var hostVersion: String
        var artworkCacheDirectory: String
        /// RLIMIT_AS of the process in bytes; 0 for none.
        var memoryLimitBytes: UInt64
        /// The instance's `state_dir`, or nil.
        var stateDirectory: String?
        /// Where a sandboxed process may write (nil: not sandboxed).
        var writable: [String]?
    }

    /// How the process's sandbox went (its SANDBOX frame).
    enum SandboxReport: Equatable {
        /// Not asked for.
        case off
        /// Writes are confined by Landlock of this ABI version.
        case confined(landlockABI: Int32)
        /// Tracing is refused, but writes could not be confined (no Landlock here); why.
        case writesNotConfined(String)
        /// No sandbox at all could be set up; why.
        case failed(String)
    }

    /// How long loading may take before the process is killed (as `--list-plugins` allows).
    static let loadTimeout = PluginInspection.timeout

    private init(pid: pid_t, fd: Int32, note: Int32) {
        self.pid = pid
        self.note = note
        connection = .allocate(capacity: 1)
        motet_wire_connection_init(connection, fd)
    }

    // Never freed while a thread may still write: a process object lives as long as its instance.
    deinit {
        close(note)
        close(connection.pointee.fd)
        connection.deallocate()
    }

    /// Starts a host process for `launch` and waits for the plugin's descriptor (a copy the player
    /// can check like one it loaded itself), or for why it could not load.
    static func start(_ launch: Launch)
        -> Result<(process: PluginProcess, descriptor: UnsafePointer<motet_plugin_descriptor>, sandbox: SandboxReport), PluginLoadFailure>
    {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            return .failure(.isolationFailed("cannot make its socket: \(String(cString: strerror(errno)))"))
        }
        let arguments = [
            launch.executable, MOTET_WIRE_VERSION_ARGUMENT, launch.file, launch.instanceName, launch.hostVersion,
            launch.artworkCacheDirectory, String(launch.memoryLimitBytes), launch.stateDirectory ?? "",
            launch.writable == nil ? "off" : "on",
        ] + (launch.writable ?? [])
        var notes: [Int32] = [-1, -1]
        guard pipe(&notes) == 0 else {
            close(fds[0])
            close(fds[1])
            return .failure(.isolationFailed("cannot make its note pipe: \(String(cString: strerror(errno)))"))
        }
        let spawned = ChildProcess.spawn(
            launch.executable, arguments, descriptors: [(fds[1], 3), (notes[1], 4)],
            environment: ChildProcess.swiftRuntimeDirectory.map { ["MOTET_SWIFT_RUNTIME=" + $0] } ?? [])
        close(fds[1])
        close(notes[1])
        _ = fcntl(notes[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(notes[0], F_SETFL, O_NONBLOCK)
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(fds[0])
            close(notes[0])
            return .failure(.isolationFailed("cannot start \(launch.executable): \(error.text)"))
        }
        let process = PluginProcess(pid: pid, fd: fds[0], note: notes[0])
        var frame = process.readFrame(timeout: loadTimeout)
        var sandbox = SandboxReport.off
        if launch.writable != nil, case .frame(MOTET_WIRE_SANDBOX, let payload) = frame {
            guard let report = sandboxReport(payload) else {
                process.end()
                return .failure(.isolationFailed("its process sent a malformed sandbox report"))
            }
            sandbox = report
            frame = process.readFrame(timeout: loadTimeout)
        }
        switch frame {
        case .frame(MOTET_WIRE_DESCRIPTOR, let payload):
            let descriptor = payload.withUnsafeBufferPointer { motet_wire_decode_descriptor($0.baseAddress, $0.count) }
            if let descriptor { return .success((process, descriptor, sandbox)) }
            process.end()
            return .failure(.invalidDescriptor("its process sent a malformed descriptor"))
        case .frame(MOTET_WIRE_LOAD_FAILED, let payload):
            process.end()
            return .failure(loadFailure(payload) ?? .isolationFailed("its process sent a malformed load failure"))
        case .timedOut:
            process.end()
            return .failure(.isolationFailed("loading it did not finish in \(loadTimeout.secondsText) s; it is not used"))
        case .closed, .malformed, .frame:
            let status = process.end()
            return .failure(.isolationFailed("its process \(ChildProcess.describe(status: status)) while loading it; it is not used"
                + " (report it to the plugin's author, or remove the file)"))
        }
    }

    private static func sandboxReport(_ payload: [UInt8]) -> SandboxReport? {
        payload.withUnsafeBufferPointer { bytes -> SandboxReport? in
            var r = motet_wire_reader()
            motet_wire_reader_init(&r, bytes.baseAddress, bytes.count)
            let applied = Int32(bitPattern: motet_wire_get_u32(&r))
            let problem = motet_wire_get_string(&r).map { LogText.fromPlugin($0) } ?? ""
            guard motet_wire_reader_finish(&r) == MOTET_WIRE_OK else { return nil }
            if applied > 0 { return .confined(landlockABI: applied) }
            return applied == 0 ? .writesNotConfined(problem) : .failed(problem)
        }
    }

    private static func loadFailure(_ payload: [UInt8]) -> PluginLoadFailure? {
        payload.withUnsafeBufferPointer { bytes -> PluginLoadFailure? in
            var r = motet_wire_reader()
            motet_wire_reader_init(&r, bytes.baseAddress, bytes.count)
            let why = motet_wire_get_u32(&r)
            let detail = motet_wire_get_string(&r).map { LogText.fromPlugin($0) } ?? ""
            guard motet_wire_reader_finish(&r) == MOTET_WIRE_OK else { return nil }
            switch why {
            case MOTET_WIRE_FAILED_NOT_SHARED_OBJECT: return .notSharedObject(detail)
            case MOTET_WIRE_FAILED_UNRESOLVED_SYMBOL: return .unresolvedSymbol(detail)
            case MOTET_WIRE_FAILED_LOADER: return .loaderFailed(detail)
            case MOTET_WIRE_FAILED_NO_ENTRY: return .noEntryFunction
            case MOTET_WIRE_FAILED_DECLINED: return .declined(hostMajor: MOTET_ABI_MAJOR, hostMinor: MOTET_ABI_MINOR)
            default: return nil
            }
        }
    }

    /// What one read gave.
    enum Read {
        case frame(UInt32, [UInt8])
        /// The other end closed between frames.
        case closed
        /// Anything that breaks the framing (plugin_wire.h), or a read error.
        case malformed
        case timedOut
    }

    /// Reads one frame, waiting at most `timeout` for it to begin (nil: as long as it takes).
    func readFrame(timeout: Duration? = nil) -> Read {
        let fd = connection.pointee.fd
        if let timeout {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let deadline = MonotonicInstant.now() + timeout
            while true {
                if MonotonicInstant.now() >= deadline { return .timedOut }
                let ready = poll(&p, 1, min(deadline.pollMillisecondsFromNow, 1000))
                if ready > 0 { break }
                if ready < 0 && errno != EINTR { return .malformed }
            }
        }
        var kind: UInt32 = 0
        var payload: UnsafeMutablePointer<UInt8>? = nil
        var length: UInt32 = 0
        let result = motet_wire_read_frame(fd, &kind, &payload, &length)
        defer { free(payload) }
        switch result {
        case MOTET_WIRE_OK: return .frame(kind, payload.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? [])
        case MOTET_WIRE_CLOSED: return .closed
        default: return .malformed
        }
    }

    /// Builds a frame of `kind` with `fill` and sends it; false when the process is gone.
    @discardableResult
    func send(_ kind: UInt32, _ fill: (UnsafeMutablePointer<motet_wire_buffer>) -> Void = { _ in }) -> Bool {
        var buffer = motet_wire_buffer()
        motet_wire_buffer_init(&buffer, kind)
        defer { motet_wire_buffer_free(&buffer) }
        fill(&buffer)
        return motet_wire_send(connection, &buffer) == MOTET_WIRE_OK
    }

    /// Sends `event` as frame `sequence`.
    @discardableResult
    func send(_ event: QueuedEvent, sequence: UInt64) -> Bool {
        var sent = false
        PluginEventMapping.withCEvent(event) { cEvent in
            sent = send(MOTET_WIRE_EVENT) { buffer in
                motet_wire_put_u64(buffer, sequence)
                motet_wire_encode_event(buffer, cEvent)
            }
        }
        return sent
    }

    /// Kills the process (if it still runs), waits for it and returns its status.
    @discardableResult
    func end() -> Int32 {
        status.withLock { status in
            if let status { return status }
            kill(pid, SIGKILL)
            shutdown(connection.pointee.fd, Int32(SHUT_RDWR))
            let ended = ChildProcess.wait(pid)
            status = ended
            return ended
        }
    }

    /// After its connection ended: the status of a process that ends by itself within `grace`
    /// (so that its own death is what is reported), else kills it.
    @discardableResult
    func endAfterGrace(_ grace: Duration = .milliseconds(250)) -> Int32 {
        status.withLock { status in
            if let status { return status }
            let deadline = MonotonicInstant.now() + grace
            var ended: Int32 = 0
            while MonotonicInstant.now() < deadline {
                if waitpid(pid, &ended, WNOHANG) == pid {
                    status = ended
                    return ended
                }
                usleep(5_000)
            }
            kill(pid, SIGKILL)
            ended = ChildProcess.wait(pid)
            status = ended
            return ended
        }
    }

    /// Whether the process said, as it died, that its memory limit was reached.
    var diedOfMemoryLimit: Bool {
        var byte: UInt8 = 0
        return read(note, &byte, 1) == 1 && byte == UInt8(ascii: "M")
    }

    /// Waits for the process to end by itself (after it said DONE) and returns its status.
    @discardableResult
    func reap() -> Int32 {
        status.withLock { status in
            if let status { return status }
            let ended = ChildProcess.wait(pid)
            status = ended
            return ended
        }
    }

    /// Closes the player's end of the socket (the process ends when it reads the end of file),
    /// without waiting: for a process whose reader must wake up.
    func hangUp() {
        shutdown(connection.pointee.fd, Int32(SHUT_RDWR))
    }
}
