/// Makes hostile text (arguments, config lines, file names, tags) safe to show on a terminal:
/// control characters and invisible direction overrides become visible escapes, and very long
/// text is cut.
package enum DisplayText {
    /// At most this many characters of one value are shown.
    package static let maximumShown = 300

    /// `text` with every C0/C1 control character, DEL and bidirectional override written as `\xHH`
    /// or `\u{HHHH}`, cut to ``maximumShown`` characters with an ellipsis.
    package static func escaped(_ text: String) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maximumShown {
                out += "…"
                break
            }
            count += 1
            let v = scalar.value
            if v < 0x20 || v == 0x7F {
                out += "\\x" + hex(v, width: 2)
            } else if (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
            {
                out += "\\u{" + hex(v, width: 4) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `'text'`, escaped.
    package static func quoted(_ text: String) -> String { "'" + escaped(text) + "'" }

    /// A file name in a `FILE:LINE:` prefix: escaped, unquoted.
    package static func quotedIfNeeded(_ path: String) -> String { escaped(path) }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
