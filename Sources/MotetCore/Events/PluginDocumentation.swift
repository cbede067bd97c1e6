/// What a plugin says about itself in its descriptor (name, version, description and, from ABI
/// 1.1, its options), as `motet-plugins(7)` shows it. Read by the plugin host from the plugin
/// file; rendered by the man page generator, which cannot load plugins itself.
public struct PluginDocumentation: Sendable, Equatable {
    /// One option, as the plugin describes it.
    public struct Option: Sendable, Equatable {
        /// The key (`path`).
        public var key: String
        /// What its value is, in words (`output file`, `seconds`, `yes/no`).
        public var value: String
        /// The default the plugin names, or nil.
        public var defaultValue: String?
        /// The plugin's one-line help.
        public var help: String

        /// An option as the plugin describes it.
        public init(key: String, value: String, defaultValue: String?, help: String) {
            self.key = key
            self.value = value
            self.defaultValue = defaultValue
            self.help = help
        }
    }

    /// The name it is loaded by (`json` in `--plugin json`).
    public var name: String
    /// The plugin's own version.
    public var version: String
    /// What it does, in one line.
    public var description: String
    /// Its options (none before ABI 1.1).
    public var options: [Option]

    /// A plugin as its descriptor describes it.
    public init(name: String, version: String, description: String, options: [Option]) {
        self.name = name
        self.version = version
        self.description = description
        self.options = options
    }
}
