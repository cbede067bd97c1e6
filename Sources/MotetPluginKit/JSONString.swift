/// JSON string literals for delegates that write JSON (files, log lines, sockets) without
/// Foundation. Tag text is hostile: every byte sequence comes out as one valid JSON string.
public enum JSONString {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string (RFC 8259), quotes included. Controls, DEL, C1 controls and
    /// U+2028/U+2029 are written as `\uXXXX`, so the output stays on one line and a terminal that
    /// shows it obeys none of them.
    public static func append(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x22: out.append(contentsOf: Array("\\\"".utf8))
            case 0x5c: out.append(contentsOf: Array("\\\\".utf8))
            case 0x0a: out.append(contentsOf: Array("\\n".utf8))
            case 0x0d: out.append(contentsOf: Array("\\r".utf8))
            case 0x09: out.append(contentsOf: Array("\\t".utf8))
            case 0..<0x20, 0x7f..<0xa0, 0x2028, 0x2029:
                out.append(contentsOf: Array("\\u".utf8))
                for shift in stride(from: 12, through: 0, by: -4) {
                    out.append(hexDigits[Int((v >> UInt32(shift)) & 0xf)])
                }
            default:
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
