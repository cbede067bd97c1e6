/// Where one option occurrence came from: the command line (and how it was spelled) or a line of the
/// config file. Errors and plugin origins are rendered from it.
enum OptionSource: Sendable, Equatable {
    /// `spelling` is what the user typed: `--volume`, `-o`.
    case commandLine(spelling: String)
    /// `key` is the key as written on that line.
    case configFile(path: String, line: Int, key: String)

    /// `--plugin` or `FILE:LINE`, the form used in `PluginRequest.origin`.
    var origin: String {
        switch self {
        case .commandLine(let spelling): spelling
        case .configFile(let path, let line, _): "\(path):\(line)"
        }
    }

    var isCommandLine: Bool {
        if case .commandLine = self { return true }
        return false
    }
}
