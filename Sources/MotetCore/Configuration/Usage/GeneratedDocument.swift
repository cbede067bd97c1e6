import MotetEvents

/// The documents generated from the option table and the plugins' own option descriptions:
/// `motet --generate KIND`, run by `make install` and `make deb` so that the man pages and the
/// completions never disagree with `--help` and `--list-plugins`.
public enum GeneratedDocument: String, CaseIterable, Sendable {
    /// `motet(1)`.
    case man
    /// `motet-plugins(7)`, from the plugin files given as the arguments.
    case pluginsMan = "plugins-man"
    case bash
    case zsh
    case fish

    /// The hidden flag that asks for plugin names (see ``ShellCompletion``).
    public static let pluginNamesFlag = ShellCompletion.pluginNamesFlag

    /// The document's text. `plugins`: what the plugin files say about themselves, for
    /// `plugins-man` (the plugin host reads them: `PluginHost.documentation(files:)`).
    public func render(version: String, plugins: [PluginDocumentation] = []) -> String {
        switch self {
        case .man: ManPage.render(version: version)
        case .pluginsMan: PluginsManPage.render(version: version, plugins: plugins)
        case .bash: ShellCompletion.bash()
        case .zsh: ShellCompletion.zsh()
        case .fish: ShellCompletion.fish()
        }
    }
}
