/// One `KEY=VALUE` option handed to a plugin at create time.
public struct PluginOption: Sendable, Equatable {
    /// The option's name (never empty).
    public var key: String
    /// Its value, unescaped (may be empty).
    public var value: String

    /// Where it was written, for messages about it: `FILE:LINE` of its key in the config file;
    /// nil on the command line (the request's origin, `--plugin`, says it all).
    public var origin: String?

    /// The option `key=value`, written at `origin`.
    public init(key: String, value: String, origin: String? = nil) {
        self.key = key
        self.value = value
        self.origin = origin
    }
}
