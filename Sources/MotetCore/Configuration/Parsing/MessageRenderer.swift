import MotetSystem

/// The one place that turns a ``ParseProblem`` into the line the user reads: `motet: ` + where
/// (the option, or `FILE:LINE: key`) + what is wrong with which value + what is allowed.
enum MessageRenderer {
    /// The error for `problem` found at `location`.
    static func render(_ problem: ParseProblem, at location: ProblemLocation) -> UsageError {
        UsageError("motet: " + prefix(location) + sentence(problem, location))
    }

    /// A warning line in the same style.
    static func warning(_ text: String, at location: ProblemLocation) -> String {
        "motet: " + prefix(location) + text
    }

    private static func prefix(_ location: ProblemLocation) -> String {
        switch location {
        case .commandLine(option: nil): ""
        case .commandLine(option: let option?): option + ": "
        case .configFile(let path, let line, nil): DisplayText.quotedIfNeeded(path) + ":\(line): "
        case .configFile(let path, let line, let key?):
            DisplayText.quotedIfNeeded(path) + ":\(line): " + DisplayText.escaped(key) + ": "
        }
    }

    private static func sentence(_ problem: ParseProblem, _ location: ProblemLocation) -> String {
        let q = DisplayText.quoted
        switch problem {
        case .unknownOption(let option, let suggestion?):
            return "unknown option \(q(option)); did you mean \(q(suggestion))?"
        case .unknownOption(let option, nil):
            return "unknown option \(q(option)). Try 'motet --help'."
        case .unknownKey(let key, let suggestion?):
            return "unknown key \(q(key)); did you mean \(q(suggestion))?"
        case .unknownKey(let key, nil):
            return "unknown key \(q(key)). The keys are the long options without '--'; try 'motet --help'."
        case .missingValue(let expected):
            return "missing value; expected \(expected)."
        case .invalidValue(let value, let expected, let suggestion?):
            return "\(q(value)) is not \(expected); did you mean \(q(suggestion))?"
        case .invalidValue(let value, let expected, nil):
            return "\(q(value)) is not \(expected)."
        case .badValue(let value, let explanation):
            return "\(q(value)): \(explanation)."
        case .unexpectedText(let option, let text):
            return "\(q(option)) takes no value, but \(q(text)) is glued to it. Try 'motet --help'."
        case .commandLineOnly(let key):
            return "\(q(key)) can only be given on the command line (--\(DisplayText.escaped(key)))."
        case .inputsInConfigFile(let key):
            return "\(q(key)) cannot be set in the config file; give FILE|DIR|PLAYLIST on the command line."
        case .notKeyValue(let line):
            return "\(q(line)) is not 'key = value', a '[plugin NAME]' section header, or a comment."
        case .emptyKey:
            return "a key is missing before '='."
        case .unterminatedSection(let text):
            return "section header \(q(text)) has no closing ']'; write '[plugin NAME]'."
        case .unknownSection(let text):
            return "unknown section \(q(text)); the only sections are '[plugin NAME]'."
        case .nulByte:
            return "the line contains a NUL byte; the config file must be text."
        case .conflict(let a, let b):
            return "\(a) and \(b) cannot be used together."
        case .untimedNeedsOfflineOutput(let output):
            return "only works with --output null, wav:PATH or wav-float:PATH (the output is \(q(output)))."
        case .unreadableConfigFile(let path, let reason):
            if case .commandLine(option: _?) = location {
                return "cannot read \(q(path)): \(reason). Give a readable file, or --no-config."
            }
            return "cannot read the config file \(q(path)): \(reason). Fix it, or run with --no-config."
        case .noInputs:
            return "nothing to play: give a FILE, DIR or PLAYLIST. Try 'motet --help'."
        }
    }
}
