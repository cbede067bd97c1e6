#if canImport(Glibc)
import Glibc
#endif

/// How many terminal columns text takes, and how to cut it to a number of columns without
/// splitting a character (a grapheme cluster: a base with its combining marks, an emoji sequence).
///
/// A CJK character or an emoji takes two columns, a combining mark none. Widths come from glibc's
/// `wcwidth` in the C.UTF-8 locale (what tmux and most terminals use), taken only for this thread
/// while measuring, so the process locale is left alone; where glibc does not know a character, an
/// East Asian Width table decides. When the two disagree the wider wins: counting a column too many
/// leaves a blank, counting one too few makes the terminal wrap the status line.
enum ColumnWidth {
    /// glibc's UTF-8 character tables, or nil when the C library has none.
    nonisolated(unsafe) private static let utf8Locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// glibc's `wcwidth` (the Glibc module does not export it: it needs `_XOPEN_SOURCE`).
    private static let wcwidth: (@convention(c) (wchar_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (wchar_t) -> Int32).self)
    }()

    /// The columns `text` takes.
    static func of(_ text: String) -> Int {
        withUTF8Locale { text.reduce(0) { $0 + columns($1) } }
    }

    /// `text` if it fits in `columns`, else its longest run of whole characters that fits with a
    /// trailing "…" (which takes one column).
    static func fitted(_ text: String, columns: Int) -> String {
        guard columns > 0 else { return "" }
        return withUTF8Locale {
            var used = 0
            var kept = ""
            var cut = false
            var widths: [Int] = []
            for character in text {
                let width = Self.columns(character)
                if used + width > columns {
                    cut = true
                    break
                }
                used += width
                kept.append(character)
                widths.append(width)
            }
            guard cut else { return kept }
            // Make room for the ellipsis.
            while used + 1 > columns, !kept.isEmpty {
                kept.removeLast()
                used -= widths.removeLast()
            }
            return kept + "…"
        }
    }

    /// The columns one character takes (call inside `withUTF8Locale`).
    private static func columns(_ character: Character) -> Int {
        var sum = 0
        var emoji = false
        for scalar in character.unicodeScalars {
            sum += columns(scalar)
            if scalar.value == 0xfe0f || scalar.properties.isEmojiPresentation { emoji = true }
        }
        return emoji ? max(2, sum) : sum
    }

    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7f..<0xa0).contains(v) { return 0 }
        let table: Int
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: table = 0
        default: table = scalar.properties.isEmojiPresentation || isWide(v) ? 2 : 1
        }
        guard utf8Locale != nil, let wcwidth, let c = wchar_t(exactly: v) else { return table }
        return max(Int(wcwidth(c)), table)
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15, in broad ranges).
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115f, 0x2e80...0x303e, 0x3041...0x33ff, 0x3400...0x4dbf, 0x4e00...0x9fff,
            0xa000...0xa4cf, 0xa960...0xa97f, 0xac00...0xd7a3, 0xf900...0xfaff, 0xfe10...0xfe19,
            0xfe30...0xfe6f, 0xff00...0xff60, 0xffe0...0xffe6, 0x16fe0...0x18cff, 0x1b000...0x1b2ff,
            0x1f200...0x1f2ff, 0x1f300...0x1f64f, 0x1f900...0x1f9ff, 0x20000...0x2fffd, 0x30000...0x3fffd:
            true
        default:
            false
        }
    }

    /// Runs `body` with this thread's character tables set to UTF-8.
    private static func withUTF8Locale<T>(_ body: () -> T) -> T {
        guard let utf8Locale else { return body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return body()
    }
}
