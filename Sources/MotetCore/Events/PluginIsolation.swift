/// Which plugins run in a process of their own (`--plugin-isolation`, docs/ISOLATION.md).
public enum PluginIsolation: String, Sendable, CaseIterable {
    /// Every plugin but the bundled delegates (the default): what users install from elsewhere
    /// cannot stop the music.
    case thirdParty = "third-party"
    /// Every plugin, the bundled delegates too.
    case always
    /// None: every plugin in the player's process, under the crash guard only (for debugging).
    case never
}
