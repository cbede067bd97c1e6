/// One plugin instance to load: from `--plugin NAME[:KEY=VALUE,…]`, a top-level `plugin = …` key, or
/// a `[plugin NAME]` section of the config file.
public struct PluginSpec: Sendable, Equatable {
    /// A plugin name (`log`, searched in the plugin directories) or, when it contains `/`, the path
    /// of a shared object (`/x/y.so`, `./y.so`).
    public var name: String
    /// The options, in the order given.
    public var options: [PluginOption]
    /// Unique among the loaded instances: the section's NAME, else the plugin name (for a path: the
    /// file name without `lib`/`libmotet-`/`motet-` and `.so…`); a second instance of the same name
    /// becomes `log#2`, a third `log#3`.
    public var instanceName: String
    /// Where it was asked for: `--plugin`, or `FILE:LINE` in the config file.
    public var origin: String

    /// A plugin instance.
    public init(name: String, options: [PluginOption], instanceName: String, origin: String) {
        self.name = name
        self.options = options
        self.instanceName = instanceName
        self.origin = origin
    }

    /// True when ``name`` is a path to a shared object rather than a name to search for.
    public var isPath: Bool { name.contains("/") }
}
