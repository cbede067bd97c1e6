/// Builds compact JSON text into bytes, without Foundation. The caller keeps the structure
/// balanced; commas are inserted automatically.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current container needs a comma first.
    private var needsComma = false

    init() { bytes.reserveCapacity(1024) }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the value written next belongs to it.
    mutating func key(_ name: String) {
        separate()
        Self.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ s: String?) {
        separate()
        if let s { Self.appendString(s, to: &bytes) } else { bytes.append(contentsOf: Array("null".utf8)) }
        needsComma = true
    }

    mutating func bool(_ b: Bool?) { raw(b.map { $0 ? "true" : "false" } ?? "null") }
    mutating func integer(_ i: Int64?) { raw(i.map { "\($0)" } ?? "null") }
    mutating func null() { raw("null") }

    /// A finite double as JSON (non-finite values become null: JSON has no NaN).
    mutating func number(_ d: Double?) {
        guard let d, d.isFinite else { return raw("null") }
        raw("\(d)")
    }

    /// Microseconds written as seconds with millisecond precision, e.g. `185.250`.
    mutating func seconds(micros: Int64?) {
        guard let us = micros else { return raw("null") }
        let negative = us < 0
        let ms = (negative ? 0 &- us : us) / 1000
        let frac = ms % 1000
        let pad = frac < 10 ? "00" : frac < 100 ? "0" : ""
        raw("\(negative ? "-" : "")\(ms / 1000).\(pad)\(frac)")
    }

    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    private mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string (RFC 8259) with quotes. Controls, DEL, C1 controls and U+2028/U+2029 become
    /// `\uXXXX`, so hostile tags cannot break the line or a terminal that shows it.
    static func appendString(_ text: String, to out: inout [UInt8]) {
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
