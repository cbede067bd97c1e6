import Glibc

/// The one seam through which this module touches the file system (Glibc only, no Foundation).
package enum FileSystem {
    /// A failed system call: the `errno` and a lower-case human reason.
    package struct Failure: Error, Equatable {
        package var code: Int32
        /// e.g. "no such file or directory".
        package var reason: String {
            if code == EFBIG { return "file too large" }
            guard let text = strerror(code) else { return "error \(code)" }
            var s = String(cString: text)
            if let first = s.first, first.isUppercase { s = first.lowercased() + s.dropFirst() }
            return s
        }
    }

    /// What a path is (following symbolic links).
    package enum Kind: Equatable {
        case regular, directory, other
    }

    /// The identity of a file, to detect cycles (a directory link loop, a playlist including itself).
    package struct Identity: Hashable {
        package var device: UInt64
        package var inode: UInt64
    }

    /// Kind and identity of `path`, following symbolic links.
    package static func status(_ path: String) -> Result<(kind: Kind, identity: Identity), Failure> {
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(Failure(code: errno)) }
        let type = st.st_mode & S_IFMT
        let kind: Kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other
        return .success((kind, Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))))
    }

    /// True unless `path` does not exist (ENOENT/ENOTDIR); a file that exists but cannot be
    /// examined counts as existing, so that reading it reports why.
    /// The directory part of `path`: "/" for "/x.ogg", "." for "x.ogg".
    package static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    package static func exists(_ path: String) -> Bool {
        if case .failure(let failure) = status(path) { return failure.code != ENOENT && failure.code != ENOTDIR }
        return true
    }

    /// True when the process may read `path`.
    package static func readable(_ path: String) -> Failure? {
        access(path, R_OK) == 0 ? nil : Failure(code: errno)
    }

    /// The whole file, refusing more than `limit` bytes (EFBIG).
    package static func readFile(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(code: errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(Failure(code: errno)) }
        if st.st_mode & S_IFMT == S_IFDIR { return .failure(Failure(code: EISDIR)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(code: errno))
            }
            if n == 0 { break }
            if bytes.count + n > limit { return .failure(Failure(code: EFBIG)) }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return .success(bytes)
    }

    /// The names in directory `path`, without `.` and `..`, unsorted.
    package static func listDirectory(_ path: String) -> Result<[String], Failure> {
        guard let dir = opendir(path) else { return .failure(Failure(code: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { return .failure(Failure(code: errno)) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// The canonical absolute path of an existing file, or nil.
    package static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates `path` and its missing parents with mode 0700.
    package static func makeDirectories(_ path: String) -> Failure? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                return Failure(code: errno)
            }
            prefix += "/"
        }
        if case .success(let s) = status(path), s.kind == .directory { return nil }
        return Failure(code: ENOTDIR)
    }

    /// Replaces `path` with `bytes` atomically: a temporary file in the same directory, written,
    /// fsync'd, renamed over `path`, then the directory fsync'd. On failure the temporary file is
    /// removed and `path` is untouched.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) -> Failure? {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let dirPrefix = path.hasPrefix("/") && directory.isEmpty ? "/" : directory.isEmpty ? "" : directory + "/"
        var template = Array((dirPrefix + "." + base + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return Failure(code: errno) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        func fail(_ code: Int32) -> Failure {
            close(fd)
            unlink(temporary)
            return Failure(code: code)
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return fail(errno)
            }
            written += n
        }
        if fchmod(fd, mode) != 0 { return fail(errno) }
        if fsync(fd) != 0 { return fail(errno) }
        if close(fd) != 0 {
            let code = errno
            unlink(temporary)
            return Failure(code: code)
        }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            return Failure(code: code)
        }
        let dirFD = open(dirPrefix.isEmpty ? "." : dirPrefix, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
        return nil
    }
}
