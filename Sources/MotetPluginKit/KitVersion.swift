/// The version of this kit (MotetPluginKit), apart from the C ABI's: its major changes when a
/// plugin's Swift source has to change to build against it, its minor when it only grows.
/// PLUGINS.md ("The Swift kit's versions") says what changed in each.
public enum KitVersion {
    /// Changes here break plugins' sources (1.1.0's `init(host:options:)` did, before the kit
    /// had a version).
    public static let major = 1
    /// Additions only.
    public static let minor = 3
    /// Fixes only.
    public static let patch = 0
    /// "1.3.0".
    public static var string: String { "\(major).\(minor).\(patch)" }
}
