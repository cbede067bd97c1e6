/// The order people expect for file names: runs of digits compare as numbers ("track 2" before
/// "track 10"), letters compare without regard to ASCII case, and anything still equal falls back to
/// plain byte order, so the order is total and stable.
public enum NaturalSort {
    /// True when `a` sorts before `b`.
    public static func less(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var i = 0
        var j = 0
        var leadingZeroTieBreak = 0  // < 0: a had fewer leading zeros in the first differing run
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let (startA, endA) = digitRun(x, from: i)
                let (startB, endB) = digitRun(y, from: j)
                let lengthA = endA - startA
                let lengthB = endB - startB
                if lengthA != lengthB { return lengthA < lengthB }
                for k in 0..<lengthA where x[startA + k] != y[startB + k] {
                    return x[startA + k] < y[startB + k]
                }
                if leadingZeroTieBreak == 0 {
                    let zerosA = startA - i
                    let zerosB = startB - j
                    if zerosA != zerosB { leadingZeroTieBreak = zerosA < zerosB ? -1 : 1 }
                }
                i = endA
                j = endB
                continue
            }
            let ca = lowered(x[i])
            let cb = lowered(y[j])
            if ca != cb { return ca < cb }
            i += 1
            j += 1
        }
        let restA = x.count - i
        let restB = y.count - j
        if restA != restB { return restA < restB }
        if leadingZeroTieBreak != 0 { return leadingZeroTieBreak < 0 }
        return x.lexicographicallyPrecedes(y)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func lowered(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

    /// The significant digits of the run starting at `index` (leading zeros skipped) and its end.
    private static func digitRun(_ bytes: [UInt8], from index: Int) -> (start: Int, end: Int) {
        var end = index
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        var start = index
        while start < end - 1 && bytes[start] == 48 { start += 1 }
        return (start, end)
    }
}
