/// Text made safe for roff (man pages): backslashes, hyphens in option names, and lines that
/// would otherwise start a request.
enum Roff {
    /// Escapes running text: `\` becomes `\e`, a line starting with `.` or `'` is protected, and
    /// characters beyond ASCII become groff's `\[uXXXX]` (raw UTF-8 is "invalid input" to groff;
    /// `…` becomes `...`, which every output device has).
    static func text(_ s: String) -> String {
        var out = replace(s, "\\", "\\e")
        out = replace(replace(out, "\n.", "\n\\&."), "\n'", "\n\\&'")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return asciiOnly(out)
    }

    private static func asciiOnly(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else if scalar == "\u{2026}" {
                out += "..."
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return out
    }

    /// An option or command spelling in bold, its hyphens as real minus signs (`\-`), so that the
    /// page can be searched and copied.
    static func bold(_ s: String) -> String { "\\fB" + replace(text(s), "-", "\\-") + "\\fR" }

    /// A placeholder in italics.
    static func italic(_ s: String) -> String { "\\fI" + text(s) + "\\fR" }
}

extension Roff {
    /// `s` with every `target` replaced (the lean build has neither Foundation nor
    /// _StringProcessing, so no `replacingOccurrences`).
    static func replace(_ s: String, _ target: String, _ replacement: String) -> String {
        let t = Array(target)
        guard !t.isEmpty else { return s }
        let chars = Array(s)
        var out = ""
        var i = 0
        while i < chars.count {
            if i + t.count <= chars.count && Array(chars[i..<(i + t.count)]) == t {
                out += replacement
                i += t.count
            } else {
                out.append(chars[i])
                i += 1
            }
        }
        return out
    }
}
