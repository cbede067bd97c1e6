#if canImport(Glibc)
import Glibc
#endif
import MotetEvents

/// How the host isolates plugins: the policy, and what it needs to start a plugin's process.
public struct PluginIsolationSettings: Sendable {
    public var mode: PluginIsolation
    /// The `motet-plugin-host` executable, or nil when none was found (see ``findHostExecutable``).
    public var hostExecutable: String?
    /// The address-space limit of each plugin process in bytes (`--plugin-memory-limit`); 0 for none.
    public var memoryLimitBytes: UInt64
    /// Whether plugin processes sandbox themselves (`--plugin-sandbox`, default on).
    public var sandbox: Bool
    /// Directories whose plugins are the bundled delegates (the installed plugin directory and a
    /// build tree's), as real paths.
    public var bundledDirectories: [String]

    public init(
        mode: PluginIsolation, hostExecutable: String?, memoryLimitBytes: UInt64, bundledDirectories: [String], sandbox: Bool = true
    ) {
        self.mode = mode
        self.sandbox = sandbox
        self.hostExecutable = hostExecutable
        self.memoryLimitBytes = memoryLimitBytes
        self.bundledDirectories = bundledDirectories.compactMap(Self.realPath)
    }

    /// Every plugin in the player's process.
    public static let none = PluginIsolationSettings(mode: .never, hostExecutable: nil, memoryLimitBytes: 0, bundledDirectories: [])

    /// The bundled-plugin directories of a search path: where motet's own delegates are installed,
    /// and a build tree's.
    public static func bundledDirectories(of searchPath: PluginSearchPath) -> [String] {
        searchPath.bundledDirectories
    }

    /// Whether the plugin in `file` runs in a process of its own.
    public func isolates(_ file: String) -> Bool {
        switch mode {
        case .never: return false
        case .always: return true
        case .thirdParty:
            guard let real = Self.realPath(file) else { return true }
            let directory = String(real[..<(real.lastIndex(of: "/") ?? real.startIndex)])
            return !bundledDirectories.contains(directory)
        }
    }

    /// How the plugin in `file` runs, for `--list-plugins`.
    public func describe(_ file: String) -> String {
        guard isolates(file) else {
            return mode == .never ? "in motet's process (--plugin-isolation never)" : "in motet's process (bundled with motet)"
        }
        guard hostExecutable != nil else { return "nowhere: it needs a process of its own, and motet-plugin-host is not installed" }
        return "in a process of its own (--plugin-isolation \(mode.rawValue))" + (sandbox ? "" : ", not sandboxed (--plugin-sandbox off)")
    }

    /// `motet-plugin-host` for the motet at `executablePath`: beside it (a build tree), else in
    /// `../libexec/motet/` (installed). Nil when neither exists.
    public static func findHostExecutable(executablePath: String) -> String? {
        guard let real = realPath(executablePath) else { return nil }
        let directory = String(real[..<(real.lastIndex(of: "/") ?? real.startIndex)])
        for candidate in [directory + "/motet-plugin-host", directory + "/../libexec/motet/motet-plugin-host"]
        where access(candidate, X_OK) == 0 {
            return realPath(candidate) ?? candidate
        }
        return nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
