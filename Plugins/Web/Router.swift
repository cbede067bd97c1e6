import MotetPluginKit

/// Decides the answer to every request: the routes, their methods, the access policy, the
/// command's body. Pure: what it needs from the rest of the plugin comes as closures, so the fuzz
/// target and the tests run it without a server or a player.
struct Router: Sendable {
    let policy: AccessPolicy
    /// The state as `/api/now-playing` shows it (the json delegate's schema).
    let nowPlaying: @Sendable () -> [UInt8]
    /// Sends a command to the host, and gives its answer.
    let send: @Sendable (RemoteCommand) -> MotetHost.CommandAnswer
    /// The cached picture with this content hash (already validated), or nil.
    let artwork: @Sendable (ArtworkHash) -> (bytes: [UInt8], mime: String)?

    func respond(to request: WebRequest) -> WebResponse {
        let isCommand = request.path == "/api/command"
        if let (status, message) = policy.refusal(request, isCommand: isCommand) {
            return .error(status, message)
        }
        if let file = PageFiles.file(at: request.path) {
            guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "use GET", allow: "GET, HEAD") }
            return .full(status: 200, contentType: file.contentType, body: file.bytes)
        }
        switch request.path {
        case "/api/now-playing":
            guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "use GET", allow: "GET, HEAD") }
            return .full(status: 200, contentType: "application/json", body: nowPlaying())
        case "/api/events":
            guard request.method == "GET" else { return .error(405, "use GET", allow: "GET") }
            return .eventStream
        case "/api/command":
            guard request.method == "POST" else { return .error(405, "commands are sent with POST", allow: "POST") }
            switch RemoteCommand.parse(request.body) {
            case .failure(let e): return .error(400, e.message)
            case .success(let command): return Self.answer(send(command))
            }
        default:
            if request.path.hasPrefix("/artwork/") {
                guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "use GET", allow: "GET, HEAD") }
                guard let hash = ArtworkHash(request.path.dropFirst("/artwork/".count)) else {
                    return .error(404, "artwork is named by its SHA-256 in hex")
                }
                guard let picture = artwork(hash) else { return .error(404, "no such artwork") }
                return .full(status: 200, contentType: picture.mime, body: picture.bytes)
            }
            return .error(404, "no such page")
        }
    }

    /// The host's answer as an HTTP status: accepted 202, refused 409, busy 429, unsupported 501.
    static func answer(_ answer: MotetHost.CommandAnswer) -> WebResponse {
        let (status, word) =
            switch answer {
            case .accepted: (202, "accepted")
            case .refused: (409, "refused")
            case .busy: (429, "busy")
            case .unsupported: (501, "unsupported")
            }
        return .full(status: status, contentType: "application/json", body: Array("{\"answer\":\"\(word)\"}\n".utf8))
    }
}
