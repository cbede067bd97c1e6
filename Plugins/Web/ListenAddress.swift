#if canImport(Glibc)
import Glibc
#endif

/// The `listen=ADDRESS:PORT` option: a numeric IPv4 address, or an IPv6 one in brackets
/// (`[::1]:6690`); no host names (the plugin looks nothing up).
struct ListenAddress: Equatable, Sendable {
    static let defaultValue = "127.0.0.1:6690"

    /// The address as written, without brackets.
    let address: String
    let port: UInt16
    let isIPv6: Bool

    /// Parses the option's value, or says what is wrong with it.
    static func parse(_ text: String) -> Result<ListenAddress, CommandError> {
        let usage = "listen=\(text) is not ADDRESS:PORT (a numeric address such as 127.0.0.1:6690 or [::1]:6690)"
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(CommandError(usage))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return .failure(CommandError(usage)) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText), port > 0 else { return .failure(CommandError(usage)) }
        let isIPv6 = text.hasPrefix("[")
        var scratch = in6_addr()
        guard inet_pton(isIPv6 ? AF_INET6 : AF_INET, String(host), &scratch) == 1 else { return .failure(CommandError(usage)) }
        return .success(ListenAddress(address: String(host), port: port, isIPv6: isIPv6))
    }

    /// Only this machine can connect: no token is needed.
    var isLoopback: Bool { address == "127.0.0.1" || address == "::1" }
    /// Every address of the machine (0.0.0.0, ::).
    var isUnspecified: Bool { address == "0.0.0.0" || address == "::" }

    /// What a browser sends as `Host` for this address.
    var hostHeader: String { (isIPv6 ? "[\(address)]" : address) + ":\(port)" }

    /// The page's URL, with the token when one is needed.
    func url(token: String?) -> String {
        let host = isUnspecified ? (isIPv6 ? "[::1]:\(port)" : "127.0.0.1:\(port)") : hostHeader
        return "http://\(host)/" + (token.map { "?token=\($0)" } ?? "")
    }

    /// The socket address to bind, for `body`.
    func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        if isIPv6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, address, &a.sin6_addr)
            return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, address, &a.sin_addr)
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
