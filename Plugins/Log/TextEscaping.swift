/// Escaping for hostile tag text (a title may hold ESC, newlines, quotes or any byte).
enum TextEscaping {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` for a human log line inside double quotes: C0 controls and DEL become `\xHH`,
    /// C1 controls become `\u00HH` (some terminals obey them too), `"` and `\` are backslashed.
    /// Everything else is kept as UTF-8, so accents and emoji read as themselves.
    static func appendQuotedText(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x22, 0x5c:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(v))
            case 0..<0x20, 0x7f:
                out.append(contentsOf: Array("\\x".utf8))
                appendHex(v, digits: 2, to: &out)
            case 0x80..<0xa0:
                out.append(contentsOf: Array("\\u".utf8))
                appendHex(v, digits: 4, to: &out)
            default:
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendHex(_ value: UInt32, digits: Int, to out: inout [UInt8]) {
        var shift = (digits - 1) * 4
        while shift >= 0 {
            out.append(hexDigits[Int((value >> UInt32(shift)) & 0xf)])
            shift -= 4
        }
    }
}
