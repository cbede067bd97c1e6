/// One `KEY=VALUE` option for a plugin instance, in the order the user wrote them.
public struct PluginOptionPair: Sendable, Equatable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One plugin instance the user asked for, with `--plugin NAME[:KEY=VALUE,...]` or a
/// `[plugin NAME]` section of the config file.
public struct PluginRequest: Sendable, Equatable {
    /// A plugin name (`log`), looked up in the search path, or a path to a shared object (any
    /// string containing `/`, e.g. `./my.so` or `/opt/x/my.so`), loaded as it is.
    public var nameOrPath: String
    /// Passed to the plugin's `create`, in this order.
    public var options: [PluginOptionPair]
    /// Unique per instance (`log`, `log#2`): prefixes the plugin's log lines, names it in errors.
    public var instanceName: String
    /// Where the request came from, for messages: `--plugin` or `FILE:LINE`.
    public var origin: String
    /// Load the file even when it or its directory is writable by others or owned by another user.
    public var allowUnsafePermissions: Bool

    public init(
        nameOrPath: String, options: [PluginOptionPair] = [], instanceName: String? = nil,
        origin: String = "--plugin", allowUnsafePermissions: Bool = false
    ) {
        self.nameOrPath = nameOrPath
        self.options = options
        self.instanceName = instanceName ?? nameOrPath
        self.origin = origin
        self.allowUnsafePermissions = allowUnsafePermissions
    }

    /// True when `nameOrPath` is a path rather than a name to search for.
    public var isPath: Bool { nameOrPath.contains("/") }
}
