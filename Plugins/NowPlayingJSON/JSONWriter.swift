import MotetPluginKit

/// Builds compact JSON text into bytes, without Foundation. The caller keeps the structure
/// balanced; commas are inserted automatically.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current container needs a comma first.
    private var needsComma = false

    package init() { bytes.reserveCapacity(1024) }

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    package mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    package mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the value written next belongs to it.
    package mutating func key(_ name: String) {
        separate()
        JSONString.append(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func string(_ s: String?) {
        separate()
        if let s { JSONString.append(s, to: &bytes) } else { bytes.append(contentsOf: Array("null".utf8)) }
        needsComma = true
    }

    package mutating func bool(_ b: Bool?) { raw(b.map { $0 ? "true" : "false" } ?? "null") }
    package mutating func integer(_ i: Int64?) { raw(i.map { "\($0)" } ?? "null") }
    package mutating func null() { raw("null") }

    /// A finite double as JSON (non-finite values become null: JSON has no NaN).
    package mutating func number(_ d: Double?) {
        guard let d, d.isFinite else { return raw("null") }
        raw("\(d)")
    }

    /// Microseconds written as seconds with millisecond precision, e.g. `185.250`.
    package mutating func seconds(micros: Int64?) {
        guard let us = micros else { return raw("null") }
        let negative = us < 0
        let ms = (negative ? 0 &- us : us) / 1000
        let frac = ms % 1000
        let pad = frac < 10 ? "00" : frac < 100 ? "0" : ""
        raw("\(negative ? "-" : "")\(ms / 1000).\(pad)\(frac)")
    }

    package mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    private mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
