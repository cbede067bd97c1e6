/// One row of the option table: how the option is spelled on the command line and in the config
/// file, what it takes, its help line, and how it changes the settings.
struct OptionDefinition: Sendable {
    /// A flag takes no value on the command line (`--shuffle`, or `--shuffle=no`) and yes/no in
    /// the config file; a value option always takes one.
    enum Kind: Sendable, Equatable {
        case flag
        /// `placeholder` is shown in the help (`0-100`); `expected` completes "expected …".
        case value(placeholder: String, expected: String)
    }

    /// Long name without `--`; also the config file key.
    var name: String
    /// Single-letter form (`-o`), if any.
    var short: Character?
    var kind: Kind
    /// False for options that make no sense in a config file (`config`, `help`, …).
    var allowedInConfigFile: Bool
    /// True when giving it again adds to a list instead of replacing the value.
    var repeatable: Bool
    /// One or two sentences for `--help`.
    var help: String
    /// Applies the value (nil for a bare flag on the command line) to the draft.
    var apply: @Sendable (inout SettingsDraft, String?, OptionSource) throws(ParseProblem) -> Void

    /// `--name`.
    var spelling: String { "--" + name }

    /// What the option expects, for the missing-value message.
    var expected: String {
        switch kind {
        case .flag: ValueParsers.booleanExpected
        case .value(_, let expected): expected
        }
    }
}
