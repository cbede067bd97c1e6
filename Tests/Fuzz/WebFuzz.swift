// libFuzzer target: the web delegate's request routing (Router, AccessPolicy) and what a client
// sends it (the JSON command body, JSONValue; the listen= option, ListenAddress). The web
// sources are compiled with this file (bench/fuzz.sh), so it reaches their internal types.
import MotetPluginKit

/// The input: a method selector byte, then `PATH\n`, header lines `Name: value\n` up to an empty
/// line, then the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let first = bytes.first else { return 0 }
    let methods = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"]
    var lines = bytes.dropFirst().split(separator: UInt8(ascii: "\n"), maxSplits: 64, omittingEmptySubsequences: false)
    let path = lines.isEmpty ? "/" : String(decoding: lines.removeFirst(), as: UTF8.self)
    var request = WebRequest(method: methods[Int(first) % methods.count], path: path)
    while let line = lines.first, !line.isEmpty {
        lines.removeFirst()
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { continue }
        let value = String(text[text.index(after: colon)...].drop { $0 == " " })
        switch text[..<colon].lowercased() {
        case "host": request.host = value
        case "origin": request.origin = value
        case "token": request.queryToken = value
        case "x-motet-token": request.headerToken = value
        default: break
        }
    }
    request.body = Array(lines.dropFirst().joined(separator: [UInt8(ascii: "\n")]).prefix(WebLimits.bodyBytes))

    let token = first & 0x80 != 0 ? String(repeating: "a", count: 64) : nil
    let listen = ListenAddress(address: token == nil ? "127.0.0.1" : "192.0.2.1", port: 6690, isIPv6: false)
    let sent = Counter()
    let router = Router(
        policy: AccessPolicy(listen: listen, token: token), nowPlaying: { Array("{}\n".utf8) },
        send: { _ in sent.count += 1; return .accepted }, artwork: { _ in nil })
    let answer = router.respond(to: request)
    switch answer {
    case .eventStream:
        precondition(request.method == "GET" && request.path == "/api/events")
    case .full(let status, _, let body, _):
        precondition([200, 202, 400, 401, 403, 404, 405].contains(status), "status \(status)")
        if status >= 400 {
            precondition(JSONValue.parse(body)?["error"] != nil, "an error body is one JSON object with an error")
        }
        if status == 202 { precondition(sent.count == 1 && request.method == "POST") } else { precondition(sent.count == 0) }
        if status == 200 || status == 202, let host = request.host {
            precondition(listen.isLoopback ? ["127.0.0.1:6690", "localhost:6690"].contains(host.lowercased()) : host == "192.0.2.1:6690")
        }
        if status == 200 || status == 202, let token {
            precondition((request.headerToken ?? request.queryToken) == token, "only the token opens the door")
        }
    }
    // The body and the option on their own.
    if case .success(let command) = RemoteCommand.parse(bytes) {
        if case .setVolume(let v) = command.command { precondition((0...100).contains(v)) }
    }
    if case .success(let address) = ListenAddress.parse(String(decoding: bytes, as: UTF8.self)) {
        precondition(address.port > 0)
    }
    _ = ArtworkHash(String(decoding: bytes, as: UTF8.self))
    return 0
}

/// How many commands the router sent (one input, one thread).
final class Counter: @unchecked Sendable {
    var count = 0
}
