/// What counts as a URL: `http://` or `https://`, the scheme in any case.
public enum NetworkURL {
    public static func isURL(_ text: String) -> Bool {
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The host part, for messages ("" when there is none).
    public static func host(of url: String) -> String {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return "" }
        let rest = parts[2]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last.map(String.init) ?? ""
        if hostPort.hasPrefix("[") { return String(hostPort.prefix { $0 != "]" }.dropFirst()) }
        return String(hostPort.prefix { $0 != ":" })
    }
}
