import MotetEvents

/// Turns option values (from either the command line or the config file) into typed settings.
/// Each throws ``ParseProblem/invalidValue(_:expected:)`` with the same `expected` text the help
/// and the missing-value message use.
enum ValueParsers {
    static let booleanExpected = "yes or no (also true/false, on/off, 1/0)"
    static let outputExpected = "an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null"
    static let timeExpected = "a time: SS, MM:SS or HH:MM:SS, each with an optional .fraction (e.g. 90, 1:30, 1:02:03.5)"
    static let volumeExpected = "a number from 0 to 100"
    static let skipLimitExpected = "N/MINUTES: at most N skips (0 or more) in MINUTES minutes (1 or more), e.g. 6/60"
    static let pathExpected = "a path"

    /// yes/no, true/false, on/off, 1/0 (any case).
    static func boolean(_ text: String) throws(ParseProblem) -> Bool {
        switch text.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default:
            let words = ["yes", "no", "true", "false", "on", "off"]
            throw .invalidValue(text, expected: booleanExpected, suggestion: Suggestion.closest(to: text, among: words))
        }
    }

    /// `auto|pulse|alsa[:DEVICE]|wav:PATH|wav-float:PATH|null`.
    static func output(_ text: String) throws(ParseProblem) -> OutputChoice {
        switch text {
        case "auto": return .auto
        case "pulse": return .pulse
        case "alsa": return .alsa(device: nil)
        case "null": return .null
        default: break
        }
        for (prefix, make) in [
            ("alsa:", { (rest: String) in OutputChoice.alsa(device: rest) }),
            ("wav:", { (rest: String) in OutputChoice.wav(path: rest, float: false) }),
            ("wav-float:", { (rest: String) in OutputChoice.wav(path: rest, float: true) }),
        ] where text.hasPrefix(prefix) {
            let rest = String(text.dropFirst(prefix.count))
            if rest.isEmpty {
                let what = prefix == "alsa:" ? "a DEVICE" : "a PATH"
                throw .badValue(text, explanation: "\(what) is missing after '\(prefix)'")
            }
            return make(rest)
        }
        throw .invalidValue(text, expected: outputExpected, suggestion: outputSuggestion(text))
    }

    /// The output `text` is nearest to: a bare name (`pusle` → `pulse`), or a mistyped prefix
    /// with its DEVICE or PATH kept (`wva:/x.wav` → `wav:/x.wav`).
    private static func outputSuggestion(_ text: String) -> String? {
        if let colon = text.firstIndex(of: ":") {
            let kind = String(text[..<colon])
            return Suggestion.closest(to: kind, among: ["alsa", "wav", "wav-float"]).map { $0 + text[colon...] }
        }
        return Suggestion.closest(to: text, among: ["auto", "pulse", "alsa", "null"])
    }

    /// `SS[.frac]`, `MM:SS[.frac]` or `HH:MM:SS[.frac]`. The first field is unbounded (up to 9
    /// digits); the fields after it are below 60; the fraction is cut to microseconds.
    static func time(_ text: String) throws(ParseProblem) -> Duration {
        let invalid = ParseProblem.invalidValue(text, expected: timeExpected)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let clock = parts.first else { throw invalid }
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { throw invalid }
        var seconds: Int64 = 0
        for (index, field) in fields.enumerated() {
            guard !field.isEmpty, field.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw invalid }
            if index == 0 {
                guard field.utf8.count <= 9 else { throw invalid }
            } else {
                guard field.utf8.count <= 2 else { throw invalid }
            }
            guard let value = Int64(field) else { throw invalid }
            if index > 0 && value >= 60 { throw invalid }
            seconds = seconds * 60 + value
        }
        var micros: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.utf8.count <= 9,
                fraction.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
            else { throw invalid }
            var digits = String(fraction.prefix(6))
            while digits.count < 6 { digits += "0" }
            micros = Int64(digits) ?? 0
        }
        return .seconds(seconds) + .microseconds(micros)
    }

    /// A whole number from 0 to 100.
    static func volume(_ text: String) throws(ParseProblem) -> Int {
        guard let value = wholeNumber(text, maximumDigits: 3), value <= 100 else {
            throw .invalidValue(text, expected: volumeExpected)
        }
        return value
    }

    /// `N/MINUTES`, N from 0 to 1000000, MINUTES from 1 to 1000000.
    static func skipLimit(_ text: String) throws(ParseProblem) -> SkipLimit {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let count = wholeNumber(String(parts[0]), maximumDigits: 7), count <= 1_000_000,
            let minutes = wholeNumber(String(parts[1]), maximumDigits: 7), (1...1_000_000).contains(minutes)
        else { throw .invalidValue(text, expected: skipLimitExpected) }
        return SkipLimit(count: count, minutes: minutes)
    }

    static let sampleRateExpected = "a sample rate in Hz, a whole number from 8000 to 384000 (e.g. 48000)"

    /// `--output-rate`: Hz, 8000 to 384000.
    static func sampleRate(_ text: String) throws(ParseProblem) -> Int {
        guard let value = wholeNumber(text, maximumDigits: 6), (8000...384_000).contains(value) else {
            throw .invalidValue(text, expected: sampleRateExpected)
        }
        return value
    }

    static let memoryLimitExpected = "a whole number of MiB from 16 to 1048576, or 0 for no limit"

    /// `--plugin-memory-limit`: MiB, 0 (no limit) or 16 to 1048576.
    static func memoryLimit(_ text: String) throws(ParseProblem) -> Int {
        guard let value = wholeNumber(text, maximumDigits: 7), value == 0 || (16...1_048_576).contains(value) else {
            throw .invalidValue(text, expected: memoryLimitExpected)
        }
        return value
    }

    /// One of the raw values of `E`.
    static func choice<E: RawRepresentable & CaseIterable>(_ text: String, of type: E.Type, expected: String) throws(ParseProblem) -> E
    where E.RawValue == String {
        guard let value = E(rawValue: text) else {
            throw .invalidValue(text, expected: expected, suggestion: Suggestion.closest(to: text, among: E.allCases.map(\.rawValue)))
        }
        return value
    }

    /// A non-empty path.
    static func path(_ text: String) throws(ParseProblem) -> String {
        guard !text.isEmpty else { throw .invalidValue(text, expected: pathExpected) }
        return text
    }

    /// ASCII digits only, at most `maximumDigits` of them.
    private static func wholeNumber(_ text: String, maximumDigits: Int) -> Int? {
        guard !text.isEmpty, text.utf8.count <= maximumDigits,
            text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { return nil }
        return Int(text)
    }
}
