import MotetEvents
import MotetNetwork

/// The playlist formats (`.m3u`/`.m3u8`, `.pls`, `.xspf`), their entries, and how an entry becomes
/// a path or a URL.
enum PlaylistReader {
    /// An entry and its line number (from 1).
    struct Entry: Equatable {
        var text: String
        var line: Int
        /// The title the playlist gives it (PLS `TitleN=`, M3U `#EXTINF:…,Title`, XSPF `<title>`).
        var title: String? = nil
    }

    /// Something in a playlist that is not an entry and should be (its line and what to do).
    struct Note: Equatable {
        var line: Int
        var text: String
    }

    /// What an entry names.
    enum Target: Equatable {
        case path(String)
        /// An http or https URL.
        case url(WebAddress)
        /// Not something Motet plays, with the reason (what is wrong and what to do).
        case unsupported(String)
    }

    /// What relative entries are relative to.
    enum Base: Equatable {
        /// A local directory ("" for the current one, else ending in `/`).
        case directory(String)
        /// The URL of a remote playlist (its final URL, after redirects).
        case address(WebAddress)
    }

    enum Format: Equatable {
        case m3u, pls, xspf

        /// By the name's extension (any case): `.m3u`, `.m3u8`, `.pls`, `.xspf`.
        init?(name: String) {
            let lower = name.lowercased()
            if lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8") {
                self = .m3u
            } else if lower.hasSuffix(".pls") {
                self = .pls
            } else if lower.hasSuffix(".xspf") {
                self = .xspf
            } else {
                return nil
            }
        }

        /// By an HTTP `Content-Type` (parameters and case ignored); nil for anything else,
        /// `text/plain` included (servers send it for every kind of file).
        init?(contentType: String) {
            guard let type = PlaylistContentType(contentType) else { return nil }
            self.init(type)
        }

        /// The format of a playlist content type.
        init(_ type: PlaylistContentType) {
            switch type {
            case .m3u: self = .m3u
            case .pls: self = .pls
            case .xspf: self = .xspf
            }
        }

        /// Whether entries are URI references (percent-encoded even when relative), as in XSPF.
        var entriesAreURIs: Bool { self == .xspf }

        /// The entries of a playlist in this format, and one note per thing that is not an entry
        /// and should be.
        func read(_ bytes: [UInt8]) -> (entries: [Entry], notes: [Note]) {
            switch self {
            case .m3u: PlaylistReader.readM3U(bytes)
            case .pls: PLSReader.read(bytes)
            case .xspf: XSPFReader.read(bytes)
            }
        }
    }

    /// An `.m3u` playlist's entries, or none and one note when it is an HLS playlist (`#EXT-X-`
    /// tags: segments of one stream, usually AAC or MPEG-TS, not tracks to play one by one).
    static func readM3U(_ bytes: [UInt8]) -> (entries: [Entry], notes: [Note]) {
        let all = lines(bytes)
        if let hls = all.first(where: { $0.text.hasPrefix("#EXT-X-") }) {
            let note = "this is an HLS playlist (\(hls.text.prefix { $0 != ":" }.prefix(40))), the pieces of one stream; "
                + "Motet does not play HLS: pick the station's Ogg Vorbis or Opus stream."
            return ([], [Note(line: hls.line, text: note)])
        }
        var entries: [Entry] = []
        var title: String?
        for (text, line) in all {
            if text.first == "#" {
                // `#EXTINF:SECONDS[ KEY="VALUE"…],TITLE` names the next entry (a comma in a quoted
                // value is not the title's start).
                if text.hasPrefix("#EXTINF:"), let comma = titleComma(text) {
                    let named = trimmed(text[text.index(after: comma)...])
                    title = named.isEmpty ? nil : named
                }
                continue
            }
            entries.append(Entry(text: text, line: line, title: title))
            title = nil
        }
        return (entries, [])
    }

    /// The comma that ends an `#EXTINF` line's duration and attributes.
    private static func titleComma(_ text: String) -> String.Index? {
        var quoted = false
        for i in text.indices {
            if text[i] == "\"" { quoted.toggle() } else if text[i] == ",", !quoted { return i }
        }
        return nil
    }

    /// The `.m3u` entries: every line that is not blank and does not start with `#`, trimmed, in
    /// order (also the format of the list `-` reads from standard input).
    static func entries(_ bytes: [UInt8]) -> [Entry] {
        lines(bytes).compactMap { text, line in text.first == "#" ? nil : Entry(text: text, line: line) }
    }

    /// The lines that are not blank, trimmed, with their numbers (from 1). A UTF-8 byte-order mark
    /// and CRLF line ends are fine; invalid UTF-8 is replaced.
    static func lines(_ bytes: [UInt8]) -> [(text: String, line: Int)] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var lines: [(text: String, line: Int)] = []
        for (offset, raw) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var line = raw[...]
            while let b = line.first, b == 0x20 || b == 0x09 || b == 0x0D { line = line.dropFirst() }
            while let b = line.last, b == 0x20 || b == 0x09 || b == 0x0D { line = line.dropLast() }
            if line.isEmpty { continue }
            lines.append((String(decoding: line, as: UTF8.self), offset + 1))
        }
        return lines
    }

    /// Without leading and trailing spaces, tabs, CR and LF.
    static func trimmed(_ text: Substring) -> String {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        var scalars = text.unicodeScalars[...]
        while let c = scalars.first, blank(c) { scalars = scalars.dropFirst() }
        while let c = scalars.last, blank(c) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The directory entries of the playlist at `path` are relative to ("" for the current one).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// What an entry (or a command-line input) names:
    /// - `SCHEME://…`: an http(s) URL, or a `file://` URL decoded to its path; other schemes refused;
    /// - in a local playlist, an absolute path as is, another path joined to the directory
    ///   (percent-decoded first when `uriReference`, as XSPF locations are);
    /// - in a remote playlist, anything else is a reference resolved against the playlist's URL.
    static func resolve(_ entry: String, against base: Base, uriReference: Bool = false) -> Target {
        if WebAddress.looksLikeURL(entry) { return target(try WebAddress(parsing: entry)) }
        switch base {
        case .address(let playlist):
            return target(try playlist.resolving(entry))
        case .directory(let directory):
            var path = entry
            if uriReference {
                var cut = Substring(entry)
                if let end = cut.firstIndex(where: { $0 == "?" || $0 == "#" }) { cut = cut[..<end] }
                guard let decoded = WebAddress.percentDecoded(cut), !decoded.contains("\0") else {
                    return .unsupported("a malformed %-escape in the location; fix the entry.")
                }
                path = decoded
            }
            return .path(path.hasPrefix("/") ? path : directory + path)
        }
    }

    private static func target(_ parse: @autoclosure () throws(WebAddress.Problem) -> WebAddress) -> Target {
        let address: WebAddress
        do {
            address = try parse()
        } catch {
            return .unsupported(error.reason)
        }
        guard address.scheme == .file else { return .url(address) }
        guard let path = address.filePath else {
            return .unsupported("a malformed %-escape in the URL; fix the entry.")
        }
        return .path(path)
    }
}
