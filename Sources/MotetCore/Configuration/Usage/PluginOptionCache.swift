import MotetEvents
import MotetSystem

/// The options plugins describe, cached for shell completion: `motet --list-plugins` (which loads
/// every plugin on the search path anyway) writes it, and `motet --complete-plugin-options NAME`
/// (which the completion scripts call after `--plugin NAME:`) reads it. When the cache does not
/// know NAME yet, that call looks at NAME alone, in a child process as `--list-plugins` does, and
/// adds what it describes (``merging(_:of:into:)``): keys complete without a `--list-plugins`
/// first, and pressing TAB never loads a plugin into the shell or any plugin but the one named.
///
/// The file is `$XDG_CACHE_HOME/motet/plugin-options`, one option a line:
/// `NAME<TAB>KEY<TAB>KIND`, KIND being a ``DescribedPluginOption/Kind`` raw value. It is
/// replaced whole (a temporary file renamed over it), so a reader sees the old list or the new.
public enum PluginOptionCache {
    /// The hidden flag the completion scripts call: `motet --complete-plugin-options NAME` prints
    /// `KEY<TAB>KIND` lines for that plugin.
    public static let flag = "--complete-plugin-options"

    /// Where the cache lives for these base directories.
    public static func path(_ directories: XDGDirectories) -> String {
        directories.cacheHome + "/motet/plugin-options"
    }

    /// The file's text. An option whose name or key holds a tab or a line break is left out (the
    /// host checks keys, but not every plugin is ABI 1.1, and names come from file names).
    static func render(_ options: [DescribedPluginOption]) -> String {
        var out = ""
        for option in options {
            let fields = [option.plugin, option.key]
            guard !fields.contains(where: { $0.isEmpty || $0.contains(where: { $0 == "\t" || $0.isNewline }) }) else { continue }
            out += "\(option.plugin)\t\(option.key)\t\(option.kind.rawValue)\n"
        }
        return out
    }

    /// The options in a cache file's text; a line that does not read is skipped (an unknown kind
    /// counts as text, so that a newer motet's cache still completes keys).
    static func parse(_ text: String) -> [DescribedPluginOption] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, !fields[0].isEmpty, !fields[1].isEmpty else { return nil }
            return DescribedPluginOption(
                plugin: String(fields[0]), key: String(fields[1]), kind: .init(rawValue: String(fields[2])) ?? .string)
        }
    }

    /// Replaces the cache at `path` with `options` (creating its directory), or says why it could
    /// not.
    public static func write(_ options: [DescribedPluginOption], to path: String) -> String? {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !directory.isEmpty, let failure = FileSystem.makeDirectories(directory) {
            return "cannot create \(directory): \(failure.reason)"
        }
        if let failure = FileSystem.writeAtomically(Array(render(options).utf8), to: path, mode: 0o644) {
            return "cannot write \(path): \(failure.reason)"
        }
        return nil
    }

    /// The cached options of `plugin` in the cache at `path`, in the order the plugin describes
    /// them; none when there is no cache.
    public static func options(of plugin: String, in path: String) -> [DescribedPluginOption] {
        all(in: path).filter { $0.plugin == plugin }
    }

    /// Every cached option; none when there is no cache.
    static func all(in path: String) -> [DescribedPluginOption] {
        guard case .success(let bytes) = FileSystem.readFile(path, limit: 1 << 20) else { return [] }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// The cache at `path` with `plugin`'s options replaced by `options` (the others kept, in
    /// their order), ready for ``write(_:to:)``.
    public static func merging(_ options: [DescribedPluginOption], of plugin: String, into path: String) -> [DescribedPluginOption] {
        all(in: path).filter { $0.plugin != plugin } + options.filter { $0.plugin == plugin }
    }
}
