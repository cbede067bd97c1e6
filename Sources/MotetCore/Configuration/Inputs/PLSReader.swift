/// The entries of a `.pls` playlist (the Shoutcast/Icecast format):
///
///     [playlist]
///     File1=http://radio.example/stream.ogg
///     Title1=A station
///     NumberOfEntries=1
///     Version=2
///
/// Entries come in the order of their numbers (`File2` before `File10`, whatever the order of the
/// lines; two lines with the same number in the order written). Keys are case-insensitive, a
/// UTF-8 byte-order mark and CRLF are fine; `TitleN` names entry N (the first `FileN`); `Length`,
/// `NumberOfEntries` and `Version` are not needed to play and are ignored (a wrong
/// `NumberOfEntries` is common and harmless). Lines in another `[section]` are ignored; a file with no section at all is read as if it had
/// `[playlist]`. Each line that cannot be an entry gives one note (its line and what to do).
enum PLSReader {
    static func read(_ bytes: [UInt8]) -> (entries: [PlaylistReader.Entry], notes: [PlaylistReader.Note]) {
        var numbered: [(number: UInt64, entry: PlaylistReader.Entry)] = []
        var notes: [PlaylistReader.Note] = []
        var titles: [UInt64: String] = [:]
        var inPlaylist = true
        for (text, line) in PlaylistReader.lines(bytes) {
            if text.first == "[" {
                inPlaylist = text.lowercased() == "[playlist]"
                continue
            }
            guard inPlaylist, text.first != ";", text.first != "#" else { continue }
            guard let equals = text.firstIndex(of: "=") else { continue }
            let key = text[..<equals].lowercased().filter { $0 != " " && $0 != "\t" }
            if case .number(let number) = Self.number(of: key, after: "title") {
                let title = PlaylistReader.trimmed(text[text.index(after: equals)...])
                if !title.isEmpty, titles[number] == nil { titles[number] = title }
                continue
            }
            let number: UInt64
            switch Self.number(of: key, after: "file") {
            case .notNumbered: continue
            case .tooLarge:
                notes.append(.init(line: line, text: "the entry number in '\(key.prefix(40))' is too large; number the entries from File1."))
                continue
            case .number(let n): number = n
            }
            let value = PlaylistReader.trimmed(text[text.index(after: equals)...])
            guard !value.isEmpty else {
                notes.append(.init(line: line, text: "File\(number)= names nothing; remove the line or give it a file or URL."))
                continue
            }
            numbered.append((number, PlaylistReader.Entry(text: value, line: line)))
        }
        // A stable sort: equal numbers keep the order written.
        let sorted = numbered.enumerated().sorted { a, b in
            a.element.number != b.element.number ? a.element.number < b.element.number : a.offset < b.offset
        }.map(\.element)
        var entries: [PlaylistReader.Entry] = []
        for (k, e) in sorted.enumerated() {
            var entry = e.entry
            if k == 0 || sorted[k - 1].number != e.number { entry.title = titles[e.number] }
            entries.append(entry)
        }
        return (entries, notes)
    }

    private enum KeyNumber {
        case notNumbered
        case tooLarge
        case number(UInt64)
    }

    /// The N of a `FileN` or `TitleN` key (`prefix` lower-cased): ASCII digits, at most 18 of them.
    private static func number(of key: String, after prefix: String) -> KeyNumber {
        guard key.hasPrefix(prefix) else { return .notNumbered }
        let digits = key.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return .notNumbered }
        guard digits.count <= 18, let number = UInt64(digits) else { return .tooLarge }
        return .number(number)
    }
}
