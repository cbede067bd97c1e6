/// What a value option's value is, for shell completion: read from the option table's
/// placeholder, so that the table stays the one place an option is described.
enum OptionValueKind: Equatable {
    /// No value (a flag).
    case none
    /// One of these words; a word ending in `:` takes more after it (`wav:PATH`).
    case choices([String])
    /// A file name.
    case file
    /// A directory name.
    case directory
    /// A plugin name (or a path containing `/`): names come from `motet --complete-plugin-names`.
    case plugin
    /// Anything (a time, a number): nothing to offer.
    case text

    init(_ option: OptionDefinition) {
        guard case .value(let placeholder, _) = option.kind else {
            self = .none
            return
        }
        if option.name == "plugin" {
            self = .plugin
        } else if placeholder.contains("|") {
            var words: [String] = []
            for token in placeholder.split(separator: "|") {
                // alsa[:DEVICE] offers alsa and alsa:, wav:PATH offers wav:.
                if let bracket = token.firstIndex(of: "[") {
                    words.append(String(token[..<bracket]))
                    if token[bracket...].hasPrefix("[:") { words.append(token[..<bracket] + ":") }
                } else if let colon = token.firstIndex(of: ":") {
                    words.append(String(token[...colon]))
                } else {
                    words.append(String(token))
                }
            }
            self = .choices(words)
        } else if placeholder == "FILE" {
            self = .file
        } else if placeholder == "DIR" {
            self = .directory
        } else {
            self = .text
        }
    }
}
