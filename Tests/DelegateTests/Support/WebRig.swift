import Foundation
import MotetTestSupport
import Testing

/// The web delegate's suites (API, slow client, page), one at a time: their timings (200 ms for
/// 50 clients, 1 s for the page) must not share two cores with another player or a browser.
@Suite(.serialized) enum WebDelegateTests {}

/// The real `motet` with the web delegate on a free port, and the json delegate beside it (its
/// file is what a user's scripts would check). Stopped by PID.
struct WebRig {
    let box: PlayerSandbox
    let address: String
    let port: Int
    let stateFile: String
    let log: String
    let process: SpawnedProcess

    var base: String { "http://\(address):\(port)" }

    /// Starts motet with `arguments` (output and inputs) and waits until the server answers;
    /// `environment` is added to the sandbox's (a sound server's address). `isolated` runs the
    /// delegates each in a plugin process of its own (`--plugin-isolation always`: what the host
    /// tells them crosses the wire), as third-party plugins run; bundled ones run in motet's.
    init(
        _ box: PlayerSandbox, address: String = "127.0.0.1", environment: [String: String] = [:], isolated: Bool = false,
        _ arguments: [String]
    ) throws {
        self.box = box
        self.address = address
        port = try Self.freePort(address)
        stateFile = box.path("now-playing.json")
        log = box.path("motet-\(port).err")
        process = try SpawnedProcess(
            box.motet(
                ["--status", "quiet", "--plugin", "web:listen=\(address):\(port)", "--plugin", "json:path=\(stateFile)"]
                    + (isolated ? ["--plugin-isolation", "always"] : []) + arguments),
            environment: box.environment.merging(environment) { $1 }, stderr: log)
        let serving = try Shell.waitUntil(timeout: 20) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("web: serving") == true }
        guard serving else { throw TestError.failed("the web delegate did not start: \(stderr)") }
    }

    var stderr: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func stop() { process.stop() }

    /// True once the json delegate's file says `title` plays (10 s at most).
    func playing(_ title: String) throws -> Bool {
        try Shell.waitUntil(timeout: 10) { JSONDelegateFiles.state(stateFile)?["title"] as? String == title }
    }

    /// One request with curl (a real client): the status and the body.
    func request(
        _ path: String, method: String = "GET", headers: [String] = [], body: String? = nil, host: String? = nil
    ) throws -> (status: Int, body: String) {
        var argv = ["curl", "-s", "-m", "5", "-X", method, "-o", "-", "-w", "\n%{http_code}"]
        for h in headers { argv += ["-H", h] }
        if let host { argv += ["-H", "Host: \(host)"] }
        if let body { argv += ["--data-binary", body] }
        let r = try Shell.run(argv + [base + path], timeout: 20)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// The body as a JSON object (nil when it is not one).
    static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// A port nothing listens on now, on `address`.
    static func freePort(_ address: String) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = 0
        inet_pton(AF_INET, address, &a.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &a) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw TestError.failed("no free port on \(address)") }
        return Int(UInt16(bigEndian: a.sin_port))
    }
}
