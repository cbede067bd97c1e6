/// Makes hostile text safe for one terminal line: names from the command line, file paths, and
/// whatever a plugin passes to `log`.
enum LogText {
    /// The longest message taken from a plugin, in bytes; the rest is cut and marked.
    static let maximumPluginMessageBytes = 2000

    /// Escapes control characters (C0, DEL, C1, and the bidi/line separators that can rewrite a
    /// terminal line) so that the result is one printable line.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x5C: out += "\\\\"
            case 0x00..<0x20, 0x7F, 0x80..<0xA0:
                out += "\\x" + hex2(scalar.value)
            case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Reads a C string from a plugin: at most `maximumPluginMessageBytes` bytes (so an
    /// unterminated or huge message cannot make us read or copy without bound), invalid UTF-8
    /// replaced, control characters escaped.
    static func fromPlugin(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "(null)" }
        var length = 0
        while length < maximumPluginMessageBytes && pointer[length] != 0 { length += 1 }
        let truncated = length == maximumPluginMessageBytes && pointer[length] != 0
        let bytes = UnsafeRawPointer(pointer).bindMemory(to: UInt8.self, capacity: length)
        let text = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        return escaped(text) + (truncated ? "… (cut)" : "")
    }

    private static func hex2(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        return String(digits[Int(value >> 4) & 0xF]) + String(digits[Int(value) & 0xF])
    }
}
