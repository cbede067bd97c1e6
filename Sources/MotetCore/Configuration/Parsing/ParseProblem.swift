/// Everything that can be wrong with the command line or the config file, with the data needed to
/// explain it. Turned into a ``UsageError`` in one place: ``MessageRenderer``.
enum ParseProblem: Error, Equatable {
    /// `--foo` or `-x` on the command line; `suggestion` is the option it is nearest to
    /// (``Suggestion``), spelled as the user would type it.
    case unknownOption(String, suggestion: String? = nil)
    /// A key the config file does not know, and the key it is nearest to.
    case unknownKey(String, suggestion: String? = nil)
    /// An option that needs a value got none; `expected` says what it takes.
    case missingValue(expected: String)
    /// A value that is not what the option takes: rendered "'VALUE' is not EXPECTED.", with
    /// "; did you mean 'SUGGESTION'?" when it is near one of the values the option takes.
    case invalidValue(String, expected: String, suggestion: String? = nil)
    /// A value that is wrong for a reason of its own: rendered "'VALUE': EXPLANATION."
    case badValue(String, explanation: String)
    /// A short flag with text glued to it (`-hx`).
    case unexpectedText(option: String, text: String)
    /// A key only the command line may give (`config`, `help`, …).
    case commandLineOnly(String)
    /// `input`/`inputs` in the config file.
    case inputsInConfigFile(String)
    /// A config line that is neither `key = value`, a section header, a comment nor blank.
    case notKeyValue(String)
    /// `= value` with nothing before the `=`.
    case emptyKey
    /// `[plugin log` without the closing bracket.
    case unterminatedSection(String)
    /// `[something]` that is not `[plugin NAME]`.
    case unknownSection(String)
    /// A line containing a NUL byte.
    case nulByte
    /// Two command-line options that cannot go together.
    case conflict(String, String)
    /// `--untimed` with an output that plays in real time.
    case untimedNeedsOfflineOutput(output: String)
    /// The config file exists but cannot be read (or `--config FILE` does not exist).
    case unreadableConfigFile(path: String, reason: String)
    /// `play` with no FILE|DIR|PLAYLIST.
    case noInputs
}
