/// The entries of an `.xspf` playlist (XML Shareable Playlist Format): the first `<location>` of
/// each `<track>`, in order, with the track's `<title>`, e.g.
///
///     <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
///       <track><location>http://radio.example/stream.ogg</location><title>…</title></track>
///     </trackList></playlist>
///
/// A location is a URI reference: the caller percent-decodes a relative one into a path or
/// resolves it against the playlist's URL.
///
/// Why a hand-written scanner and not Foundation's `XMLParser`: on Linux it lives in
/// `FoundationXML`, which loads Foundation and libxml2 into the player (several MiB of resident
/// memory that the player avoids everywhere else, see `leanFlags` in Package.swift), for the one
/// element this needs. The scanner is tolerant (what a browser would make of a sloppy file) and
/// bounded: one pass, no recursion, at most ``depthLimit`` open elements, no DTD (a `<!DOCTYPE>`
/// is skipped, so no entity it declares is ever expanded). It understands comments, CDATA
/// sections, processing instructions, attributes in quotes (a `>` inside is fine), namespace
/// prefixes (`<xspf:location>`), element names in any case, the five XML entities and character
/// references (`&#233;`, `&#xE9;`); an unknown or broken entity is kept as written. Markup inside a
/// location is ignored and its text kept; an element left open is closed by its parent's end tag.
enum XSPFReader {
    /// Open elements beyond this depth end the reading (with a note).
    static let depthLimit = 256

    static func read(_ bytes: [UInt8]) -> (entries: [PlaylistReader.Entry], notes: [PlaylistReader.Note]) {
        var scanner = Scanner(bytes)
        scanner.run()
        return (scanner.entries, scanner.notes)
    }

    private struct Scanner {
        let b: [UInt8]
        var i = 0
        var entries: [PlaylistReader.Entry] = []
        var notes: [PlaylistReader.Note] = []
        /// Local names (lowercased) of the open elements.
        var stack: [String] = []
        /// The location being read: its text so far and the line it started on.
        var location: (text: [UInt8], line: Int, depth: Int)?
        /// Whether each open `<track>` (by depth) already had its location.
        var trackHasLocation: [Int: Bool] = [:]
        /// The `<title>` being read (a child of a `<track>`): its text so far and its depth.
        var title: (text: [UInt8], depth: Int)?
        /// Each open `<track>`'s title and entry (by depth), joined when it closes.
        var trackTitle: [Int: String] = [:]
        var trackEntry: [Int: Int] = [:]
        private var lineCountedTo = 0
        private var line = 1

        init(_ bytes: [UInt8]) {
            b = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }

        /// The line number of byte `offset` (offsets asked for only grow).
        mutating func lineOf(_ offset: Int) -> Int {
            while lineCountedTo < offset && lineCountedTo < b.count {
                if b[lineCountedTo] == UInt8(ascii: "\n") { line += 1 }
                lineCountedTo += 1
            }
            return line
        }

        func starts(_ text: String, at offset: Int) -> Bool {
            var k = offset
            for byte in text.utf8 {
                guard k < b.count, b[k] == byte else { return false }
                k += 1
            }
            return true
        }

        /// The offset just past the next `terminator` at or after `offset` (the end when absent).
        func past(_ terminator: String, from offset: Int) -> (end: Int, contentEnd: Int) {
            let t = Array(terminator.utf8)
            var k = offset
            while k + t.count <= b.count {
                if b[k] == t[0] && b[k..<(k + t.count)].elementsEqual(t) { return (k + t.count, k) }
                k += 1
            }
            return (b.count, b.count)
        }

        mutating func run() {
            while i < b.count {
                guard b[i] == UInt8(ascii: "<") else {
                    var end = i
                    while end < b.count && b[end] != UInt8(ascii: "<") { end += 1 }
                    if location != nil { location!.text += XMLText.decodingEntities(b[i..<end]) }
                    if title != nil { title!.text += XMLText.decodingEntities(b[i..<end]) }
                    i = end
                    continue
                }
                if starts("<!--", at: i) {
                    i = past("-->", from: i + 4).end
                } else if starts("<![CDATA[", at: i) {
                    let (end, contentEnd) = past("]]>", from: i + 9)
                    if location != nil { location!.text += b[(i + 9)..<contentEnd] }
                    if title != nil { title!.text += b[(i + 9)..<contentEnd] }
                    i = end
                } else if starts("<!", at: i) || starts("<?", at: i) {
                    skipDeclaration()
                } else if starts("</", at: i) {
                    let (name, end) = tagName(from: i + 2)
                    i = past(">", from: end).end
                    close(name)
                } else {
                    guard open() else { return }
                }
            }
            while !stack.isEmpty { close(stack.last!) }
        }

        /// `<!DOCTYPE …>` (with an internal subset in `[…]`) or `<?…?>`: skipped.
        mutating func skipDeclaration() {
            i = min(closingBracket(from: i + 2, subsets: true) + 1, b.count)
        }

        /// Where the `>` that ends a tag or declaration starting before `offset` is (`b.count` when
        /// there is none): quoted values are skipped, and with `subsets` so are `[…]` sections.
        func closingBracket(from offset: Int, subsets: Bool) -> Int {
            var k = offset
            var bracket = 0
            var quote: UInt8?
            while k < b.count {
                let c = b[k]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    quote = c
                } else if subsets && c == UInt8(ascii: "[") {
                    bracket += 1
                } else if subsets && c == UInt8(ascii: "]") {
                    bracket = max(0, bracket - 1)
                } else if c == UInt8(ascii: ">") && bracket == 0 {
                    break
                }
                k += 1
            }
            return k
        }

        /// The local name (lowercased, prefix dropped) of the tag starting at `offset`, and where it ends.
        func tagName(from offset: Int) -> (String, Int) {
            var k = offset
            while k < b.count, !Self.isNameEnd(b[k]) { k += 1 }
            var name = b[offset..<k]
            if let colon = name.lastIndex(of: UInt8(ascii: ":")) { name = name[(colon + 1)...] }
            return (String(decoding: name, as: UTF8.self).lowercased(), k)
        }

        static func isNameEnd(_ c: UInt8) -> Bool {
            c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">") || c == UInt8(ascii: "/")
        }

        /// A start tag at `i`; false when the nesting is too deep (reading stops).
        mutating func open() -> Bool {
            let tagLine = lineOf(i)
            let (name, nameEnd) = tagName(from: i + 1)
            let k = closingBracket(from: nameEnd, subsets: false)
            let selfClosing = k < b.count && k > nameEnd && b[k - 1] == UInt8(ascii: "/")
            i = min(k + 1, b.count)
            guard !name.isEmpty, !selfClosing else {
                if name == "location", stack.last == "track", trackHasLocation[stack.count - 1] == false {
                    trackHasLocation[stack.count - 1] = true
                    noteEmpty(tagLine)
                }
                return true
            }
            guard stack.count < XSPFReader.depthLimit else {
                notes.append(.init(line: tagLine, text: "elements nested more than \(XSPFReader.depthLimit) deep; the rest of the playlist is not read."))
                return false
            }
            if name == "track" { trackHasLocation[stack.count] = false }
            if name == "location", location == nil, stack.last == "track", trackHasLocation[stack.count - 1] == false {
                location = ([], tagLine, stack.count)
                trackHasLocation[stack.count - 1] = true
            }
            if name == "title", title == nil, stack.last == "track", trackTitle[stack.count - 1] == nil {
                title = ([], stack.count)
            }
            stack.append(name)
            return true
        }

        /// An end tag: closes the innermost open element of that name and any left open inside it.
        mutating func close(_ name: String) {
            guard let index = stack.lastIndex(of: name) else { return }
            while stack.count > index {
                let depth = stack.count - 1
                stack.removeLast()
                if let l = location, l.depth == depth {
                    let text = PlaylistReader.trimmed(Substring(decoding: l.text, as: UTF8.self))
                    if text.isEmpty {
                        noteEmpty(l.line)
                    } else {
                        trackEntry[depth - 1] = entries.count
                        entries.append(.init(text: text, line: l.line))
                    }
                    location = nil
                }
                if let t = title, t.depth == depth {
                    let text = PlaylistReader.trimmed(Substring(decoding: t.text, as: UTF8.self))
                    if !text.isEmpty { trackTitle[depth - 1] = text }
                    title = nil
                }
                if let entry = trackEntry.removeValue(forKey: depth) { entries[entry].title = trackTitle[depth] }
                trackTitle[depth] = nil
                if let had = trackHasLocation.removeValue(forKey: depth), !had {
                    notes.append(.init(line: lineOf(i), text: "a <track> without a <location> is not played; give it one or remove it."))
                }
            }
        }

        mutating func noteEmpty(_ line: Int) {
            notes.append(.init(line: line, text: "an empty <location> names nothing; give it a file or URL or remove the track."))
        }
    }
}

/// XML character data.
enum XMLText {
    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#NNN;` and `&#xHHH;` decoded (a reference to
    /// NUL, a surrogate or beyond U+10FFFF, and any other `&…`, kept as written).
    static func decodingEntities(_ text: ArraySlice<UInt8>) -> [UInt8] {
        guard text.contains(UInt8(ascii: "&")) else { return Array(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var k = text.startIndex
        while k < text.endIndex {
            guard text[k] == UInt8(ascii: "&"),
                let semicolon = text[k..<min(k + 12, text.endIndex)].firstIndex(of: UInt8(ascii: ";")),
                let decoded = entity(text[(k + 1)..<semicolon])
            else {
                out.append(text[k])
                k += 1
                continue
            }
            out += decoded
            k = semicolon + 1
        }
        return out
    }

    private static func entity(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        case let reference where reference.hasPrefix("#"):
            var digits = reference.dropFirst()
            var radix = 10
            if digits.first == "x" || digits.first == "X" {
                digits = digits.dropFirst()
                radix = 16
            }
            guard !digits.isEmpty, let value = UInt32(digits, radix: radix), value != 0,
                let scalar = Unicode.Scalar(value)
            else { return nil }
            return Array(String(Character(scalar)).utf8)
        default: return nil
        }
    }
}
