import Foundation
import MotetTestSupport

/// A Unix socket that accepts connections (the kernel queues them) but never answers: a session
/// bus that hangs.
final class SilentSocket: @unchecked Sendable {
    let path: String
    private let fd: Int32

    init(directory: String) throws {
        path = directory + "/silent.sock"
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError.failed("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw TestError.failed("path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw TestError.failed("bind/listen \(path): errno \(errno)") }
    }

    deinit { close(fd) }

    var address: String { "unix:path=\(path)" }
}
