/// What an open-URI command carries (MPRIS `OpenUri`), as a file path.
enum FileURI {
    /// `/abs/path` as it is; `file:///a%20b` or `file://localhost/a%20b` percent-decoded (`/a b`);
    /// nil for anything else: another scheme, a relative path, a bad escape, an embedded NUL.
    static func path(_ uri: String) -> String? {
        if uri.hasPrefix("/") { return uri.contains("\0") ? nil : uri }
        var rest: Substring
        if uri.hasPrefix("file:///") {
            rest = uri.dropFirst("file://".count)
        } else if uri.hasPrefix("file://localhost/") {
            rest = uri.dropFirst("file://localhost".count)
        } else {
            return nil
        }
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        var bytes: [UInt8] = []
        var utf8 = rest.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An `http://` or `https://` URL as it is (the network layer reads it); nil for anything else.
    static func webAddress(_ uri: String) -> String? {
        let lower = uri.prefix(8).lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !uri.contains("\0"),
            !uri.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else { return nil }
        return uri
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
