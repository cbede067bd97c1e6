/// What the command line asks the program to do.
public enum Action: Sendable, Equatable {
    /// Play the inputs (the default).
    case play
    /// `-h`, `--help`: print ``Options/helpText`` and exit 0. Wins over everything else.
    case help
    /// `-V`, `--version`: print the version and exit 0. Wins over everything but `--help`.
    case version
    /// `--list-plugins`: list the plugins found (and why a file cannot load), then exit.
    case listPlugins
}
