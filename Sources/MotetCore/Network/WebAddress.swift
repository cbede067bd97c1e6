/// An `http://`, `https://` or `file://` URL: the one type for an input that is a URL (the command
/// line, playlist entries, remote playlists, messages about them).
///
/// - Parsing follows RFC 3986's generic syntax; the scheme and host are lowercased, bytes a URL may
///   not hold as they are (spaces, non-ASCII, `"<>\^`{|}`) are percent-encoded, control characters
///   are refused, and any other scheme is refused with a line saying what Motet plays.
/// - ``resolve(_:against:)`` resolves a relative reference against a base URL (RFC 3986 §5.2, dot
///   segments removed), which is how a remote playlist's entries become URLs.
/// - ``displayText`` is the URL for messages and delegates: without any `user:password@`.
public struct WebAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable {
        case http, https, file
    }

    /// Why a text is not a URL Motet can use; `reason` says what is wrong and what to do.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    public let scheme: Scheme
    /// `user:password` as written (percent-encoded), nil when absent.
    public let userInfo: String?
    /// Lowercased; `[…]` kept around an IPv6 address; "" for `file:///PATH`.
    public let host: String
    public let port: Int?
    /// Percent-encoded, as written (after the encoding above); "/" when an http URL had none.
    public let path: String
    public let query: String?
    public let fragment: String?

    /// Parses an absolute `http`, `https` or `file` URL.
    public init(parsing untrimmed: String) throws(Problem) {
        let text = untrimmed.trimmed
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw Problem(reason: "the URL contains a control character; fix it.")
        }
        let parts = Reference(Self.encodingUnsafeBytes(text))
        guard let rawScheme = parts.scheme else {
            throw Problem(reason: "not a URL (no scheme such as http://); write a full URL.")
        }
        guard let scheme = Scheme(rawValue: rawScheme.lowercased()) else {
            throw Problem(
                reason: "Motet plays http://, https:// and file:// URLs, not \(rawScheme.lowercased()):; "
                    + "use another program for it or remove it.")
        }
        guard let authority = parts.authority else {
            throw Problem(reason: "this URL needs '//' after '\(scheme.rawValue):'; write \(scheme.rawValue)://….")
        }
        var hostPort = Substring(authority)
        var userInfo: String?
        if let at = hostPort.lastIndex(of: "@") {
            userInfo = String(hostPort[..<at])
            hostPort = hostPort[hostPort.index(after: at)...]
        }
        var portText: Substring?
        if let colon = hostPort.lastIndex(of: ":"), !hostPort[colon...].contains("]") {
            portText = hostPort[hostPort.index(after: colon)...]
            hostPort = hostPort[..<colon]
        }
        let host = hostPort.lowercased()
        var port: Int?
        if let portText, !portText.isEmpty {
            guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText),
                (1...65535).contains(number)
            else {
                throw Problem(reason: "the port '\(portText)' is not a number from 1 to 65535; fix the URL.")
            }
            port = number
        }
        guard Self.isValidHost(host) else {
            throw Problem(reason: "the host name '\(host)' is not valid; fix the URL.")
        }
        switch scheme {
        case .http, .https:
            guard !host.isEmpty else {
                throw Problem(reason: "the URL has no host name; write it as \(scheme.rawValue)://HOST/PATH.")
            }
        case .file:
            guard host.isEmpty || host == "localhost", userInfo == nil, port == nil else {
                throw Problem(reason: "only local file:// URLs are played (file:///PATH); copy the file here or write its path.")
            }
        }
        self.scheme = scheme
        self.userInfo = userInfo
        self.host = scheme == .file ? "" : host
        self.port = port
        self.path = parts.path.isEmpty && scheme != .file ? "/" : parts.path
        self.query = parts.query
        self.fragment = parts.fragment
    }

    /// Nil when `text` is not an http, https or file URL.
    public init?(_ text: String) {
        guard let parsed = try? WebAddress(parsing: text) else { return nil }
        self = parsed
    }

    /// True when `text` starts like a URL (`SCHEME://`): what the inputs treat as a URL rather than
    /// a path (so `C:\music` and `notes: a.ogg` stay paths).
    public static func looksLikeURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard scheme.first!.isASCII && scheme.first!.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return false }
        return text[colon...].hasPrefix("://")
    }

    /// The URL as it is fetched: everything but the fragment.
    public var text: String { render(userInfo: true, fragment: false) }

    /// The URL for messages and delegates: no `user:password@`, no fragment.
    public var displayText: String { render(userInfo: false, fragment: false) }

    public var description: String { displayText }

    /// `text` for messages and delegates: a URL's ``displayText`` (no `user:password@`), anything
    /// else (a path) as it is.
    public static func shown(_ text: String) -> String {
        looksLikeURL(text) ? WebAddress(text)?.displayText ?? text : text
    }

    /// True for http and https.
    public var isRemote: Bool { scheme != .file }

    /// True when `text` is an http or https URL: what is fetched over the network rather than
    /// opened as a file.
    public static func isRemote(_ text: String) -> Bool { WebAddress(text)?.isRemote == true }

    /// The last segment of the path, percent-decoded and lowercased, for telling a playlist by its
    /// name ("" when the path ends in "/").
    public var lowercasedFileName: String {
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return (Self.percentDecoded(last) ?? String(last)).lowercased()
    }

    /// The local path of a `file://` URL, percent-decoded; nil for http(s), for a malformed
    /// `%`-escape, and for an escaped NUL.
    public var filePath: String? {
        guard scheme == .file, path.hasPrefix("/"), let decoded = Self.percentDecoded(Substring(path)) else { return nil }
        return decoded.contains("\0") ? nil : decoded
    }

    /// `reference` resolved against this URL (RFC 3986 §5.2); throws when the result is not a URL
    /// Motet can use (another scheme, no host…).
    public func resolving(_ reference: String) throws(Problem) -> WebAddress {
        try WebAddress(parsing: Self.resolve(reference, against: render(userInfo: true, fragment: true)))
    }

    /// RFC 3986 §5.2.2 (strict): the target URI of `reference` against the absolute URI `base`,
    /// whatever their schemes.
    public static func resolve(_ reference: String, against base: String) -> String {
        let r = Reference(reference)
        let b = Reference(base)
        var t = Reference()
        if r.scheme != nil {
            t = r
            t.path = removingDotSegments(r.path)
        } else {
            if r.authority != nil {
                t.authority = r.authority
                t.path = removingDotSegments(r.path)
                t.query = r.query
            } else {
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else {
                    if r.path.hasPrefix("/") {
                        t.path = removingDotSegments(r.path)
                    } else {
                        t.path = removingDotSegments(merge(base: b, r.path))
                    }
                    t.query = r.query
                }
                t.authority = b.authority
            }
            t.scheme = b.scheme
        }
        t.fragment = r.fragment
        return t.rendered
    }

    /// RFC 3986 §5.2.4.
    public static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []  // each element starts with "/" except possibly the first
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// RFC 3986 §5.2.3.
    private static func merge(base: Reference, _ path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    private func render(userInfo withUserInfo: Bool, fragment withFragment: Bool) -> String {
        var out = scheme.rawValue + "://"
        if withUserInfo, let userInfo { out += userInfo + "@" }
        out += host
        if let port { out += ":\(port)" }
        out += path
        if let query { out += "?" + query }
        if withFragment, let fragment { out += "#" + fragment }
        return out
    }

    /// A registered name (RFC 3986 reg-name: letters, digits, `-._~!$&'()*+,;=` and %-escapes) or
    /// an IP literal in brackets (hex digits, `:`, `.`, and a `%25` zone); "" too (checked later).
    private static func isValidHost(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        func isAlphanumeric(_ c: UInt8) -> Bool { (48...57).contains(c) || (97...122).contains(c) || (65...90).contains(c) }
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count > 2, bytes.last == UInt8(ascii: "]") else { return false }
            let allowed = Set(":.%-_~".utf8)
            return bytes.dropFirst().dropLast().allSatisfy { isAlphanumeric($0) || allowed.contains($0) }
        }
        let allowed = Set("-._~%!$&'()*+,;=".utf8)
        return bytes.allSatisfy { isAlphanumeric($0) || allowed.contains($0) }
    }

    /// Percent-decodes; nil for a malformed escape. Invalid UTF-8 is replaced.
    public static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Spaces, non-ASCII bytes and the characters RFC 3986 never allows as they are, as `%HH`.
    private static func encodingUnsafeBytes(_ text: String) -> String {
        let unsafe = Set("\"<>\\^`{|} ".utf8)
        guard text.utf8.contains(where: { $0 >= 0x80 || unsafe.contains($0) }) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte >= 0x80 || unsafe.contains(byte) {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The five components of a URI reference (RFC 3986 appendix B), unvalidated.
    private struct Reference {
        var scheme: String?
        var authority: String?
        var path = ""
        var query: String?
        var fragment: String?

        init() {}

        init(_ text: String) {
            var rest = Substring(text)
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            if let question = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: question)...])
                rest = rest[..<question]
            }
            if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
                !rest[..<colon].contains(where: { $0 == "/" })
            {
                scheme = String(rest[..<colon])
                rest = rest[rest.index(after: colon)...]
            }
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex(of: "/") ?? rest.endIndex
                authority = String(rest[..<end])
                rest = rest[end...]
            }
            path = String(rest)
        }

        var rendered: String {
            var out = ""
            if let scheme { out += scheme + ":" }
            if let authority { out += "//" + authority }
            out += path
            if let query { out += "?" + query }
            if let fragment { out += "#" + fragment }
            return out
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, CR and LF.
    fileprivate var trimmed: String {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        var s = Substring(self).unicodeScalars
        while let c = s.first, blank(c) { s = s.dropFirst() }
        while let c = s.last, blank(c) { s = s.dropLast() }
        return String(s)
    }
}
