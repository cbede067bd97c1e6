/// What a plugin name (as opposed to a path) may be: letters, digits, `.`, `_`, `-`, not empty and
/// not starting with `.` (so never `.`, `..` or a hidden file).
///
/// The one check, used by both sides: the configuration refuses a bad name at once with a one-line
/// usage error, and the plugin host uses it to look names up and to list the plugin files it finds.
public enum PluginName {
    /// The rule in words, for messages.
    public static let rule = "letters, digits, '-', '_', '.', not starting with '.'"

    /// True when `name` is a valid plugin name.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: ".") else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
        }
    }
}
