#if canImport(Glibc)
import Glibc
#endif

/// The events file: opened once for appending (created 0600 when new); every line is one
/// `write(2)`, so lines never interleave with another appender's, and a line the disk had no room
/// for is removed again, so the file never ends with half a line.
final class AppendOnlyFile {
    let path: String
    private var fd: Int32

    /// Opens `path`, or says why it cannot.
    static func open(_ path: String) -> Result<AppendOnlyFile, FileFailure> {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o600)
        guard fd >= 0 else { return .failure(.now("cannot open it")) }
        return .success(AppendOnlyFile(path: path, fd: fd))
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { close() }

    /// Appends `line` whole, or not at all. Returns nil, or why it failed.
    ///
    /// A write can stop part-way (the disk filled up mid-line): the bytes that made it are cut off
    /// again, so the file always ends with a whole line and the next append starts a fresh one.
    func append(_ line: [UInt8]) -> FileFailure? {
        guard fd >= 0 else { return FileFailure(action: "cannot append to it", code: EBADF) }
        var before = stat()
        let start: off_t? = fstat(fd, &before) == 0 && before.st_mode & S_IFMT == S_IFREG ? before.st_size : nil
        var offset = 0
        while offset < line.count {
            let n = line.withUnsafeBytes { write(fd, $0.baseAddress! + offset, line.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let failure = FileFailure.now("cannot append to it")
                if offset > 0 { cutBack(to: start, ourBytes: offset) }
                return failure
            }
            offset += n
        }
        return nil
    }

    /// Removes the `ourBytes` of a half-written line, when they are still the file's last bytes
    /// (another appender may have written after them: then the file is left alone).
    private func cutBack(to start: off_t?, ourBytes: Int) {
        var now = stat()
        guard let start, fstat(fd, &now) == 0, now.st_size == start + off_t(ourBytes) else { return }
        _ = ftruncate(fd, start)
    }

    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}
