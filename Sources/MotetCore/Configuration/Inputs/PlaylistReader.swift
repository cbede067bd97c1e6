/// The lines of an `.m3u`/`.m3u8` playlist and how an entry becomes a path.
enum PlaylistReader {
    /// An entry and its line number (from 1).
    struct Entry: Equatable {
        var text: String
        var line: Int
    }

    /// What an entry names.
    enum Target: Equatable {
        case path(String)
        /// A URL scheme Motet does not play (http…), with the reason.
        case unsupported(String)
    }

    /// The entries: every line that is not blank and does not start with `#`, trimmed, in order.
    /// A UTF-8 byte-order mark and CRLF line ends are fine; invalid UTF-8 is replaced.
    static func entries(_ bytes: [UInt8]) -> [Entry] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var entries: [Entry] = []
        for (offset, raw) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var line = raw[...]
            while let b = line.first, b == 0x20 || b == 0x09 || b == 0x0D { line = line.dropFirst() }
            while let b = line.last, b == 0x20 || b == 0x09 || b == 0x0D { line = line.dropLast() }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            entries.append(Entry(text: String(decoding: line, as: UTF8.self), line: offset + 1))
        }
        return entries
    }

    /// The directory entries of the playlist at `path` are relative to ("" for the current one).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// The path an entry names: absolute as is, `file://` URLs decoded, others joined to `directory`.
    static func resolve(_ entry: String, relativeTo directory: String) -> Target {
        if entry.hasPrefix("file://") {
            var rest = entry.dropFirst(7)
            if rest.hasPrefix("localhost/") { rest = rest.dropFirst(9) }
            guard rest.hasPrefix("/") else {
                return .unsupported("only local file:// URLs are played; write a path instead.")
            }
            guard let decoded = percentDecoded(rest) else {
                return .unsupported("a malformed %-escape in the URL; fix the entry.")
            }
            return .path(decoded)
        }
        if let colon = entry.firstIndex(of: ":"), entry[..<colon].allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }),
            entry[colon...].hasPrefix("://")
        {
            return .unsupported("Motet plays local files only, not URLs; download it or remove the entry.")
        }
        if entry.hasPrefix("/") { return .path(entry) }
        return .path(directory + entry)
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let b = iterator.next() {
            guard b == UInt8(ascii: "%") else {
                bytes.append(b)
                continue
            }
            guard let h = iterator.next().flatMap(hexValue), let l = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(h << 4 | l)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }
}
