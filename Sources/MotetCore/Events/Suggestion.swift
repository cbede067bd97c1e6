/// "Did you mean …?" for a mistyped word, as git does: the one place that decides which known word
/// a typo stands for. Used for options, option values, config keys and plugin names.
///
/// The distance is the optimal string alignment distance (Damerau–Levenshtein without repeated
/// edits of one substring): an insertion, a deletion, a substitution or a swap of two neighbouring
/// characters each count 1; letter case is ignored. A candidate is suggested when it is within
/// ``threshold(for:)`` edits and is the nearest; on a tie the first candidate in the given order
/// wins (the callers give their words in a meaningful order: the option table's, the search path's).
public enum Suggestion {
    /// The candidate `word` was most likely meant to be, or nil when none is near enough (or
    /// `word` is one of them).
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return nil }
        let limit = threshold(for: typed.count)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let known = Array(candidate.lowercased().unicodeScalars)
            // Cheap bound first: the length difference alone is that many edits.
            guard abs(known.count - typed.count) <= limit else { continue }
            let d = distance(typed, known)
            if d == 0 && candidate == word { return nil }
            if d <= limit && d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.candidate
    }

    /// How many edits a typed word of `length` characters may be from what was meant: 1 for up to
    /// 4 characters (`jsn` → `json`, `nul` → `null`), 2 up to 8, then 3. Short words get less room,
    /// or every short typo would "mean" some unrelated short word.
    public static func threshold(for length: Int) -> Int {
        length <= 4 ? 1 : length <= 8 ? 2 : 3
    }

    /// The optimal string alignment distance between two words (case-sensitive).
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows: the one before the previous (for swaps), the previous and the current.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = min(d, before[j - 2] + 1)
                }
                current[j] = d
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
