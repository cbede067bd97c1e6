/// The documents generated from the option table: `motet --generate KIND`, run by `make install`
/// and `make deb` so that the man pages and the completions never disagree with `--help`.
public enum GeneratedDocument: String, CaseIterable, Sendable {
    /// `motet(1)`.
    case man
    /// `motet-plugins(7)`, from the plugins' READMEs given as the arguments.
    case pluginsMan = "plugins-man"
    case bash
    case zsh
    case fish

    /// The hidden flag that asks for plugin names (see ``ShellCompletion``).
    public static let pluginNamesFlag = ShellCompletion.pluginNamesFlag

    /// The document's text, or why an input file cannot be read. `inputFiles` are the README
    /// files for `plugins-man`.
    public func render(version: String, inputFiles: [String] = []) -> Result<String, GenerationError> {
        var inputs: [String] = []
        for path in inputFiles {
            switch FileSystem.readFile(path, limit: 1 << 20) {
            case .success(let bytes): inputs.append(String(decoding: bytes, as: UTF8.self))
            case .failure(let failure): return .failure(GenerationError(path: path, reason: failure.reason))
            }
        }
        return .success(text(version: version, inputs: inputs))
    }

    func text(version: String, inputs: [String]) -> String {
        switch self {
        case .man: ManPage.render(version: version)
        case .pluginsMan: PluginsManPage.render(version: version, readmes: inputs)
        case .bash: ShellCompletion.bash()
        case .zsh: ShellCompletion.zsh()
        case .fish: ShellCompletion.fish()
        }
    }
}

/// An input of `motet --generate` that could not be read.
public struct GenerationError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "motet: cannot read \(path): \(reason)" }
}
