import MotetPluginKit

#if canImport(Glibc)
import Glibc
#endif

/// Where log lines go: stderr, or a file opened for appending (created 0600 when new).
/// Each line is one `write(2)`, so lines from several writers appending to the same file never
/// interleave mid-line.
final class LogWriter {
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// Set after the first failed write, so a full disk produces one complaint, not thousands.
    private(set) var failure: String?

    /// Writes to standard error.
    init() {
        fd = STDERR_FILENO
        ownsDescriptor = false
    }

    /// Opens `path` for appending; throws a readable reason when it cannot.
    init(path: String) throws {
        let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o600)
        guard opened >= 0 else {
            let reason = String(cString: strerror(errno))
            throw DelegateError("cannot open log file '\(path)': \(reason)")
        }
        fd = opened
        ownsDescriptor = true
    }

    deinit { close() }

    /// The lines go to standard error and that is a terminal: the player's status line may be on
    /// it, and only the host knows where it is (`LogDelegate.emit` writes through the host's log).
    var isTerminal: Bool { !ownsDescriptor && isatty(fd) == 1 }

    /// Closes the file (not stderr). Safe to call twice.
    func close() {
        if ownsDescriptor, !closed {
            _ = Glibc.close(fd)
        }
        closed = true
    }
    private var closed = false

    /// Writes `line` whole; returns false (and remembers why) when the system refuses.
    @discardableResult
    func write(_ line: [UInt8]) -> Bool {
        guard !closed else { return false }
        var offset = 0
        while offset < line.count {
            let n = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, line.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                if failure == nil { failure = String(cString: strerror(errno)) }
                return false
            }
            offset += n
        }
        return true
    }
}
