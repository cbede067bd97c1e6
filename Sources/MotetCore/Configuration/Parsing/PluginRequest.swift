/// A plugin asked for, before instance names are made unique.
struct PluginRequest: Equatable {
    /// Name or path.
    var name: String
    var options: [PluginOption]
    /// The `[plugin NAME]` section's NAME, when it came from one.
    var sectionName: String?
    /// `--plugin` or `FILE:LINE`.
    var origin: String
}
