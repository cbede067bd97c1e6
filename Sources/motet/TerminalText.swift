/// Makes tag text safe for a terminal: control characters (C0, DEL, C1) never reach it; they are
/// shown escaped (`\x1b`), so a tag cannot move the cursor, change colours or set the title. Bidi
/// controls (U+202E and kin) are shown as `\u{202e}`, so a tag cannot reorder the line around it.
enum TerminalText {
    static func safe(_ s: String, limit: Int = 512) -> String {
        var out = ""
        out.reserveCapacity(min(s.utf8.count, limit))
        var count = 0
        for scalar in s.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            let v = scalar.value
            if v < 0x20 || v == 0x7f || (0x80...0x9f).contains(v) {
                out += "\\x" + String(v, radix: 16).leftPadded(to: 2)
            } else if isBidiControl(v) {
                out += "\\u{" + String(v, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// `text` (already `safe`, so it holds no bidi control of its own) as a bidi isolate:
    /// FIRST STRONG ISOLATE … POP DIRECTORY ISOLATE. A terminal that does bidi (VTE, mlterm,
    /// konsole) then lays out an Arabic or Hebrew title right to left inside its field and keeps
    /// "title — artist — album" in order; the marks take no column.
    static func isolated(_ text: String) -> String {
        firstStrongIsolate + text + popDirectionalIsolate
    }

    static let firstStrongIsolate = "\u{2068}"
    static let popDirectionalIsolate = "\u{2069}"

    /// Closes the isolates that `fitted` cut off before their end, so that what follows on the
    /// line is not inside them.
    static func closingIsolates(_ text: String) -> String {
        let open = text.unicodeScalars.filter { $0 == "\u{2068}" }.count - text.unicodeScalars.filter { $0 == "\u{2069}" }.count
        return open > 0 ? text + String(repeating: popDirectionalIsolate, count: open) : text
    }

    /// Marks and overrides that change the direction of the text around them.
    static func isBidiControl(_ v: UInt32) -> Bool {
        v == 0x061c || v == 0x200e || v == 0x200f || (0x202a...0x202e).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// "3:07" or "1:02:03".
    static func time(_ micros: Int64?) -> String {
        guard let micros, micros >= 0 else { return "-:--" }
        return Duration.microseconds(micros).clockText()
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
