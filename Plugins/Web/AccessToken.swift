import MotetPluginKit

#if canImport(Glibc)
import Glibc
#endif

/// The secret a client on another machine must show: 32 random bytes in hex, made once and kept
/// in `DIR/token` (mode 0600) so that a bookmarked URL keeps working across restarts.
enum AccessToken {
    /// The token in `directory`, made (with the directory, 0700) when there is none yet; or why not.
    static func loadOrCreate(in directory: String) -> Result<(token: String, created: Bool), CommandError> {
        let path = directory + "/token"
        if let existing = read(path) { return .success((existing, false)) }
        guard makeDirectories(directory) else {
            return .failure(CommandError("cannot make \(directory): \(String(cString: strerror(errno)))"))
        }
        var random = [UInt8](repeating: 0, count: 32)
        let source = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        let got = source < 0 ? -1 : random.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
        if source >= 0 { close(source) }
        guard got == random.count else {
            return .failure(CommandError("no random bytes for a token: \(String(cString: strerror(errno)))"))
        }
        let token = random.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(CommandError("cannot write \(path): \(String(cString: strerror(errno)))")) }
        let line = Array((token + "\n").utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == line.count else {
            unlink(path)
            return .failure(CommandError("cannot write \(path)"))
        }
        return .success((token, true))
    }

    /// A token file's token: a regular file, not a link, holding 64 hex digits.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let text = String(decoding: bytes[..<n], as: UTF8.self).trimmingSpace()
        guard text.utf8.count == 64, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        fchmod(fd, 0o600)
        return text
    }

    private static func makeDirectories(_ path: String) -> Bool {
        var prefix = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { return false }
        }
        return true
    }
}

extension String {
    fileprivate func trimmingSpace() -> String {
        String(decoding: Array(utf8).drop { $0 <= 32 }.reversed().drop { $0 <= 32 }.reversed(), as: UTF8.self)
    }
}
