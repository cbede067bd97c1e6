/// One option a plugin describes in its descriptor (ABI 1.1), as shell completion needs it: the
/// plugin's name on the search path, the key, and what kind of value it takes. `motet
/// --list-plugins` (which loads the plugins) records these in a cache, and the completion scripts
/// read the cache, so that pressing TAB never loads a plugin.
public struct DescribedPluginOption: Sendable, Equatable {
    /// What an option's value is, as far as completion cares: a path kind gets file completion.
    public enum Kind: String, Sendable, CaseIterable {
        case string, bool, integer, duration
        case inputPath = "input-path"
        case outputPath = "output-path"

        /// True for the kinds that name a file.
        public var isPath: Bool { self == .inputPath || self == .outputPath }
    }

    /// The plugin's name on the search path (`json`), as in `--plugin json:…`.
    public var plugin: String
    /// The option's key (`path`).
    public var key: String
    /// Its kind.
    public var kind: Kind

    /// The option `key` of `plugin`.
    public init(plugin: String, key: String, kind: Kind) {
        self.plugin = plugin
        self.key = key
        self.kind = kind
    }
}
