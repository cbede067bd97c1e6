/// One `KEY=VALUE` option handed to a plugin at create time.
public struct PluginOption: Sendable, Equatable {
    /// The option's name (never empty).
    public var key: String
    /// Its value, unescaped (may be empty).
    public var value: String

    /// The option `key=value`.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}
