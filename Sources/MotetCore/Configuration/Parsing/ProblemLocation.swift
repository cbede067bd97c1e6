/// Where a problem was found, for the message prefix.
enum ProblemLocation: Equatable {
    /// On the command line; `option` is the spelling of the option concerned, if any.
    case commandLine(option: String?)
    /// In the config file; `key` is the key concerned, if any.
    case configFile(path: String, line: Int, key: String?)

    init(_ source: OptionSource) {
        switch source {
        case .commandLine(let spelling): self = .commandLine(option: spelling)
        case .configFile(let path, let line, let key): self = .configFile(path: path, line: line, key: key)
        }
    }
}
