#if canImport(Glibc)
import Glibc
#endif

/// A picture's name in the host's artwork cache: the SHA-256 of its bytes, 64 lowercase hex
/// digits (`ArtworkInfo.id`). Nothing else from a request ever becomes part of a path.
struct ArtworkHash: Equatable, Sendable {
    let hex: String

    init?<S: StringProtocol>(_ text: S) {
        let bytes = Array(text.utf8)
        guard bytes.count == 64,
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else { return nil }
        hex = String(decoding: bytes, as: UTF8.self)
    }

    /// The host caches a picture as `HASH.EXT` by its type (ArtworkStore).
    static let types = [("jpg", "image/jpeg"), ("png", "image/png"), ("gif", "image/gif"), ("webp", "image/webp"), ("bmp", "image/bmp")]

    /// The cached picture in `directory`: a regular file (never through a symbolic link) of at
    /// most `WebLimits.artworkBytes`, or nil.
    func read(from directory: String) -> (bytes: [UInt8], mime: String)? {
        for (ext, mime) in Self.types {
            let fd = open(directory + "/" + hex + "." + ext, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
                info.st_size <= WebLimits.artworkBytes
            else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
            var filled = 0
            while filled < bytes.count {
                let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return nil }
                filled += got
            }
            return (bytes, mime)
        }
        return nil
    }
}
