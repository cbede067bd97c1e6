#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetSystem

/// Where plugin names are looked up, in order; the first match wins.
///
/// 1. Explicit paths (`--plugin ./x.so`, anything containing `/`) are not searched: they are
///    loaded as they are (relative ones against the current directory, because the user typed them).
/// 2. Each `--plugin-dir DIR` (`plugin-dir` in the config file), in the order given.
/// 3. Each directory of `$MOTET_PLUGIN_PATH` (colon-separated; empty and relative entries are
///    ignored, so the current directory is never searched by accident).
/// 4. The user's plugins: `$XDG_DATA_HOME/motet/plugins` (default `~/.local/share/motet/plugins`;
///    see ``XDGDirectories`` for the home directory when `HOME` is unset).
/// 5. The plugins installed with motet: `<dir of the executable>/../lib/motet/plugins`.
/// 6. A build tree: the executable's own directory, where SwiftPM puts `libmotet-NAME.so` — only
///    when it is one, told by SwiftPM's object directory for the executable beside it
///    (`motet.build`): an installed `/usr/bin/motet` does not search `/usr/bin`.
///
/// In directories 2 to 5 a name `NAME` matches `NAME.so`, then `libmotet-NAME.so`; in 6 only
/// `libmotet-NAME.so`. What a name may be is ``PluginName``'s rule.
public struct PluginSearchPath: Sendable {
    /// Why a directory is in the search path.
    public enum Source: Sendable, Equatable {
        case pluginDirectory
        case environment
        case user
        case installed
        case buildTree

        /// How `--list-plugins` names the source.
        public var label: String {
            switch self {
            case .pluginDirectory: "--plugin-dir"
            case .environment: "$MOTET_PLUGIN_PATH"
            case .user: "your plugins"
            case .installed: "installed with motet"
            case .buildTree: "build tree, libmotet-NAME.so only"
            }
        }
    }

    /// One directory of the search path.
    public struct Entry: Sendable, Equatable {
        public var directory: String
        public var source: Source
    }

    /// The directories, in search order, without duplicates: a directory reached by two spellings
    /// or through a symbolic link (`dir`, `./dir/`, `link-to-dir`) is searched and listed once,
    /// under the first spelling.
    public private(set) var entries: [Entry] = []
    /// The real paths (`realpath`) of the entries that exist, to find duplicates.
    private var realDirectories: Set<String> = []
    /// Entries that were given but are not searched, with the reason (for `--list-plugins`).
    public private(set) var ignored: [String] = []
    /// Where motet's own delegates are (the installed plugin directory, a build tree), whether or
    /// not an earlier entry already searches them: their plugins run in motet's process under
    /// `--plugin-isolation third-party`.
    public private(set) var bundledDirectories: [String] = []

    /// The directories searched, in order.
    public var directories: [String] { entries.map(\.directory) }

    /// - Parameters:
    ///   - pluginDirectories: `--plugin-dir` values; relative ones are resolved against the
    ///     current directory (the user gave them explicitly).
    ///   - environment: the process environment (`MOTET_PLUGIN_PATH`, and `XDG_DATA_HOME` and `HOME`
    ///     through ``XDGDirectories``).
    ///   - executablePath: the running `motet` (e.g. `/proc/self/exe` or `argv[0]`); resolved
    ///     through symbolic links.
    ///   - currentDirectory: what relative `pluginDirectories` are resolved against; nil: the
    ///     process's (a test gives its own rather than changing the process's, which every
    ///     thread shares).
    public init(pluginDirectories: [String], environment: [String: String], executablePath: String, currentDirectory: String? = nil) {
        let xdg = XDGDirectories(environment: environment)
        for dir in pluginDirectories where !dir.isEmpty {
            var path = dir
            if path == "~" || path.hasPrefix("~/") { path = xdg.home + path.dropFirst() }
            if !path.hasPrefix("/") { path = (currentDirectory ?? Self.currentDirectory()) + "/" + path }
            add(path, .pluginDirectory)
        }
        if let list = environment["MOTET_PLUGIN_PATH"] {
            for part in list.split(separator: ":", omittingEmptySubsequences: false).map(String.init) {
                if part.isEmpty { continue }
                if part.hasPrefix("/") {
                    add(part, .environment)
                } else {
                    ignored.append("\(part) (from $MOTET_PLUGIN_PATH: relative directories are not searched)")
                }
            }
        }
        add(xdg.dataHome + "/motet/plugins", .user)
        if let exe = Self.resolvedExecutable(executablePath) {
            let binDir = Self.parent(exe)
            add(Self.parent(binDir) + "/lib/motet/plugins", .installed)
            bundledDirectories.append(Self.normalized(Self.parent(binDir) + "/lib/motet/plugins"))
            let executableName = exe[exe.index(after: exe.lastIndex(of: "/") ?? exe.startIndex)...]
            var info = stat()
            if stat(binDir + "/" + executableName + ".build", &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                add(binDir, .buildTree)
                bundledDirectories.append(binDir)
            }
        }
    }

    /// The file names a plugin name may have in a directory of this source, in order.
    static func fileNames(for name: String, in source: Source) -> [String] {
        source == .buildTree ? ["libmotet-\(name).so"] : ["\(name).so", "libmotet-\(name).so"]
    }

    /// The plugin name a file name stands for in a directory of this source, or nil.
    static func pluginName(forFile file: String, in source: Source) -> String? {
        guard file.hasSuffix(".so") else { return nil }
        var stem = String(file.dropLast(3))
        if stem.hasPrefix("libmotet-") {
            stem = String(stem.dropFirst("libmotet-".count))
        } else if source == .buildTree {
            return nil
        }
        return PluginName.isValid(stem) ? stem : nil
    }

    private mutating func add(_ directory: String, _ source: Source) {
        let clean = Self.normalized(directory)
        if entries.contains(where: { $0.directory == clean }) { return }
        if let real = realpath(clean, nil) {
            defer { free(real) }
            guard realDirectories.insert(String(cString: real)).inserted else { return }
        }
        entries.append(Entry(directory: clean, source: source))
    }

    /// Removes `.` components, doubled and trailing slashes, and resolves `..` lexically.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for component in path.split(separator: "/") {
            if component == "." { continue }
            if component == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(component)
        }
        return "/" + parts.joined(separator: "/")
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func currentDirectory() -> String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    /// The executable's real path: `path` through symbolic links (as it is when it cannot be
    /// resolved but is absolute), or `/proc/self/exe` when `path` is empty or a bare name (a bare
    /// argv[0] was found through $PATH, not in the current directory).
    private static func resolvedExecutable(_ path: String) -> String? {
        let candidate = path.contains("/") ? path : "/proc/self/exe"
        if let real = realpath(candidate, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        return candidate.hasPrefix("/") && candidate != "/proc/self/exe" ? normalized(candidate) : nil
    }
}
