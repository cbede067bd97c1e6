/// Who may use the server. On 127.0.0.1 or ::1 (the default) anyone on this machine may, as with
/// the player's own keys; on any other address every request must carry the token. Either way:
/// the `Host` must name this server (a page from another site that rebinds its name to us is
/// refused), and a command's `Origin`, when the browser sends one, must be this server (no
/// cross-site request forgery from another page in the same browser).
struct AccessPolicy: Sendable {
    /// The token every request must carry; nil on a loopback address.
    let token: String?
    /// The `Host` values a request may name: `ADDRESS:PORT`, and on loopback `localhost:PORT`.
    /// Nil: any (listening on every address, 0.0.0.0 or ::, where the name is not known).
    let hosts: Set<String>?

    init(listen: ListenAddress, token: String?) {
        self.token = token
        if listen.isUnspecified {
            hosts = nil
        } else {
            var names: Set<String> = [listen.hostHeader]
            if listen.isLoopback { names.insert("localhost:\(listen.port)") }
            hosts = names
        }
    }

    /// Why the request is refused (status, message), or nil.
    func refusal(_ request: WebRequest, isCommand: Bool) -> (Int, String)? {
        if let hosts {
            guard let host = request.host, hosts.contains(host.lowercased()) else {
                return (403, "this server answers only to \(hosts.sorted().joined(separator: " or "))")
            }
        }
        if let token {
            let given = request.headerToken ?? request.queryToken
            guard let given else { return (401, "a token is needed (the URL motet printed at start has it)") }
            guard Self.constantTimeEqual(given, token) else { return (403, "wrong token") }
        }
        if isCommand, let origin = request.origin {
            guard let host = request.host, origin == "http://" + host else {
                return (403, "a command must come from this server's own page (Origin \(origin.prefix(100)))")
            }
        }
        return nil
    }

    /// Compares without returning early, so the time taken does not tell how much matched.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<y.count { difference |= (i < x.count ? x[i] : 0) ^ y[i] }
        return difference == 0
    }
}
