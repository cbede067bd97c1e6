/// Makes tag text safe for a terminal: control characters (C0, DEL, C1) never reach it; they are
/// shown escaped (`\x1b`), so a tag cannot move the cursor, change colours or set the title.
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
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// "3:07" or "1:02:03".
    static func time(_ micros: Int64?) -> String {
        guard let micros, micros >= 0 else { return "-:--" }
        let s = micros / 1_000_000
        let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60)
        let mm = h > 0 ? String(m).leftPadded(to: 2) : String(m)
        return (h > 0 ? "\(h):" : "") + "\(mm):" + String(sec).leftPadded(to: 2)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
