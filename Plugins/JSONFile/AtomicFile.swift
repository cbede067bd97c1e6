#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file's whole content so that a reader sees either the old or the new file, never
/// half of one: write a temporary file in the same directory, fsync it, rename it over the target.
///
/// The temporary name is unpredictable (pid + counter + random) and opened with
/// `O_CREAT | O_EXCL | O_NOFOLLOW`, so a symlink planted at that name is never followed (the open
/// fails and another name is tried). `rename` replaces a symlink at the target itself, not the
/// file it points to.
struct AtomicFile {
    let path: String
    private let directory: String
    private let baseName: String
    private var counter: UInt64 = 0

    init(path: String) {
        self.path = path
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
            let dir = String(path[..<slash])
            directory = dir.isEmpty ? "/" : dir
            baseName = String(path[path.utf8.index(after: slash)...])
        } else {
            directory = "."
            baseName = path
        }
    }

    /// Writes `bytes` as the file's new content (mode 0644). Returns nil, or why it failed; then
    /// the file keeps its previous content and no temporary file is left behind.
    mutating func replace(with bytes: [UInt8]) -> FileFailure? {
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<8 {
            counter &+= 1
            let random = UInt64.random(in: 0...UInt64.max)  // the system's CSPRNG
            temporary = "\(directory)/.\(baseName).\(getpid()).\(counter).\(String(random, radix: 36)).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { return .now("cannot create a temporary file beside it") }
        var failure: FileFailure?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno != EINTR { failure = .now("cannot write its new version") }
            } else {
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = .now("cannot fsync its new version") }
        if close(fd) != 0, failure == nil { failure = .now("cannot close its new version") }
        if failure == nil, rename(temporary, path) != 0 {
            failure = .now("cannot rename its new version onto it")
        }
        if failure != nil { unlink(temporary) }
        return failure
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
