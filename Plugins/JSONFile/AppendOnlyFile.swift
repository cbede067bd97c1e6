#if canImport(Glibc)
import Glibc
#endif

/// The events file: opened once for appending (created 0600 when new); every line is one
/// `write(2)`, so lines never interleave with another appender's.
final class AppendOnlyFile {
    let path: String
    private var fd: Int32

    /// Opens `path`; nil and the reason when it cannot.
    static func open(_ path: String) -> Result<AppendOnlyFile, OpenError> {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else { return .failure(OpenError(reason: String(cString: strerror(errno)))) }
        return .success(AppendOnlyFile(path: path, fd: fd))
    }

    struct OpenError: Error { let reason: String }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close() }

    /// Appends `line` whole. Returns nil, or why it failed.
    func append(_ line: [UInt8]) -> String? {
        guard fd >= 0 else { return "closed" }
        var offset = 0
        while offset < line.count {
            let n = line.withUnsafeBytes { write(fd, $0.baseAddress! + offset, line.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += n
        }
        return nil
    }

    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}
