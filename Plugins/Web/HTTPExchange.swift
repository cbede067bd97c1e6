import MotetPluginKit

/// One request as the router sees it: what libmicrohttpd parsed, copied out of its buffers. Every
/// field is whatever the client sent: hostile until the router has checked it.
struct WebRequest: Sendable {
    var method: String
    /// The path without the query string, as libmicrohttpd decoded it.
    var path: String
    /// The `token` query argument, if any.
    var queryToken: String?
    /// The `Authorization: Bearer …` or `X-Motet-Token` header, if any.
    var headerToken: String?
    var origin: String?
    var host: String?
    /// The body (only a POST has one), at most `WebLimits.bodyBytes`.
    var body: [UInt8] = []

    init(
        method: String, path: String, queryToken: String? = nil, headerToken: String? = nil, origin: String? = nil,
        host: String? = nil, body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.queryToken = queryToken
        self.headerToken = headerToken
        self.origin = origin
        self.host = host
        self.body = body
    }
}

/// What the router answers: a whole response, or the start of an event stream.
enum WebResponse: Sendable, Equatable {
    case full(status: Int, contentType: String, body: [UInt8], allow: String? = nil)
    /// `GET /api/events`: an endless `text/event-stream` (EventStream).
    case eventStream

    /// A JSON error body, `{"error":"…"}`: one clear line for whoever sent the request.
    static func error(_ status: Int, _ message: String, allow: String? = nil) -> WebResponse {
        var body: [UInt8] = []
        body.append(contentsOf: "{\"error\":".utf8)
        JSONString.append(message, to: &body)
        body.append(contentsOf: "}\n".utf8)
        return .full(status: status, contentType: "application/json", body: body, allow: allow)
    }

    var status: Int {
        switch self {
        case .full(let status, _, _, _): status
        case .eventStream: 200
        }
    }
}

/// The plugin's fixed limits (the README lists them).
enum WebLimits {
    /// A command's JSON body: far more than any command needs.
    static let bodyBytes = 4096
    /// Connections at once, and from one client address.
    static let connections: UInt32 = 256
    static let connectionsPerAddress: UInt32 = 128
    /// A connection that makes no progress (a request never finished, a response never read)
    /// for this long is closed. Event streams are exempt while they wait for a change, and get a
    /// keep-alive every `keepAliveSeconds`, well within it.
    static let idleSeconds: UInt32 = 30
    static let keepAliveSeconds: Int64 = 15
    /// libmicrohttpd's memory per connection (request headers, write buffer).
    static let connectionMemory = 32 * 1024
    /// What an event stream may have waiting for a client that does not read: past it, the client
    /// is dropped (a few whole states; a state is about 1 KiB, more with long tags).
    static let pendingEventBytes = 64 * 1024
    /// Requests per second from one client address, with bursts of `burst`.
    static let requestsPerSecond = 50.0
    static let burst = 100.0
    /// Artwork files served: the host's cache holds pictures of at most 16 MiB.
    static let artworkBytes = 16 * 1024 * 1024
}
