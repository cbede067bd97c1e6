/// The result of parsing the command line and the config file.
public struct Invocation: Sendable, Equatable {
    /// What to do.
    public var action: Action
    /// With what settings (defaults when ``action`` is `help` or `version`).
    public var settings: Settings
    /// Lines to show the user (each starts with `motet: `) about things that were accepted but
    /// deserve a word, e.g. a key set twice in the config file.
    public var warnings: [String]

    /// An invocation.
    public init(action: Action, settings: Settings, warnings: [String]) {
        self.action = action
        self.settings = settings
        self.warnings = warnings
    }
}
