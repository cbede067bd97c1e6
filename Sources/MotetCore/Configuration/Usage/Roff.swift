/// Text made safe for roff (man pages): backslashes, hyphens in option names, and lines that
/// would otherwise start a request.
enum Roff {
    /// Escapes running text: `\` becomes `\e`, and a line starting with `.` or `'` is protected.
    static func text(_ s: String) -> String {
        var out = replace(s, "\\", "\\e")
        out = replace(replace(out, "\n.", "\n\\&."), "\n'", "\n\\&'")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
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
