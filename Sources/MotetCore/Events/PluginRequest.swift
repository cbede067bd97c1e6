/// One plugin instance to load: from `--plugin NAME[:KEY=VALUE,…]`, a top-level `plugin = …` key,
/// or a `[plugin NAME]` section of the config file.
///
/// The one shape for it: the configuration produces these (``Settings/plugins`` in
/// MotetConfiguration) and the plugin host loads them (`PluginHost.load`), with nothing in between.
public struct PluginRequest: Sendable, Equatable {
    /// A plugin name (`log`, searched in the plugin directories; see ``PluginName``) or, when it
    /// contains `/`, the path of a shared object (`/x/y.so`, `./y.so`), loaded as it is.
    public var name: String
    /// Passed to the plugin's `create`, in the order given (a key may repeat).
    public var options: [PluginOption]
    /// Unique among the loaded instances: the section's NAME, else the plugin name (for a path: the
    /// file name without `lib`/`libmotet-`/`motet-` and `.so…`); a second instance of the same name
    /// becomes `log#2`, a third `log#3`. Prefixes the plugin's log lines and names it in errors.
    public var instanceName: String
    /// Where it was asked for, for messages: `--plugin`, or `FILE:LINE` in the config file.
    public var origin: String
    /// True for `--plugin` on the command line: the user asked for it just now, so a plugin that
    /// cannot be found, loaded or given its options stops motet before it plays (exit 64); one
    /// from the config file is a warning and playback goes on.
    public var fromCommandLine = false
    /// A config section's `file = VALUE` without `library =` (the key's old meaning, deprecated):
    /// ``name`` is then VALUE, but when the plugin named like the section declares an option
    /// called `file`, the host loads that plugin and hands it `file=VALUE` instead.
    public var deprecatedFileKey: String?

    /// A plugin instance; its instance name is `name` unless given.
    public init(name: String, options: [PluginOption] = [], instanceName: String? = nil, origin: String = "--plugin") {
        self.name = name
        self.options = options
        self.instanceName = instanceName ?? name
        self.origin = origin
    }

    /// True when ``name`` is a path to a shared object rather than a name to search for.
    public var isPath: Bool { name.contains("/") }
}
