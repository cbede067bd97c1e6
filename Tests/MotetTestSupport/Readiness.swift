import Foundation
import Glibc

/// How every rig waits for its server: until the server *answers* (a connection is accepted, a
/// request gets its reply), never until a file appears. A server killed with SIGKILL leaves its
/// socket file behind, and a server on a loaded machine creates its socket some time before it
/// serves on it: a rig that waited for the path started the next component too early (issue 26:
/// pipewire-pulse ran before the new PipeWire listened, "Failed to connect to PipeWire").
public enum Readiness {
    /// Polls `answers` (through `Shell.waitUntil`) until it returns true. Throws one line naming
    /// the server, what was asked of it and the deadline when `timeout` passes, or at once when
    /// `process` (the server) ends before it answered; `detail` (its log's tail, say) follows.
    public static func wait(
        for server: String, answering what: String, timeout: Double, process: SpawnedProcess? = nil,
        detail: () -> String = { "" }, _ answers: () throws -> Bool
    ) throws {
        var exited = false
        let done = try Shell.waitUntil(timeout: timeout) {
            if try answers() { return true }
            exited = process.map { !$0.isRunning } ?? false
            return exited
        }
        if done && !exited { return }
        let why = exited
            ? "exited before it answered" + (process?.ending.map { " (\($0))" } ?? "")
            : "did not answer within \(timeout) s"
        let more = detail()
        throw TestError.failed("\(server) \(why) (waited for \(what))" + (more.isEmpty ? "" : ": " + more))
    }

    /// True when a server accepts a connection on the unix socket `path` — false for a socket file
    /// that nothing listens on any more (ECONNREFUSED), as a dead server leaves it.
    public static func unixSocketAccepts(_ path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return connects(domain: AF_UNIX, &address, length: MemoryLayout<sockaddr_un>.size)
    }

    /// 127.0.0.1:`port` as a socket address.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func connects<Address>(domain: Int32, _ address: inout Address, length: Int) -> Bool {
        let fd = socket(domain, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(length)) == 0 }
        }
    }
}
