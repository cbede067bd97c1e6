#if canImport(Glibc)
import Glibc
#endif

/// The user's base directories (XDG Base Directory Specification 0.8) for a delegate: where to
/// put a state file, a cache, or find the session bus.
///
/// A variable counts only when it holds an absolute path (relative values are invalid by the
/// specification); otherwise the specification's default under ``home`` is used. When `HOME` is
/// unset or relative, ``home`` is this user's entry in the password database (`getpwuid`), else `/`.
///
/// There are exactly two of these helpers, with the same rules: this one for plugins, and the
/// host's `XDGDirectories` in MotetEvents. A plugin cannot link a host module (the same Swift module
/// linked into the host and into a plugin duplicates its type metadata), so the kit has its own.
public struct XDGDirectories: Sendable, Equatable {
    /// `$HOME` when absolute, else the password database's home directory, else `/`.
    public let home: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public let configHome: String
    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    public let cacheHome: String
    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    public let dataHome: String
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public let stateHome: String
    /// `$XDG_RUNTIME_DIR` when absolute; nil otherwise (it has no default: decide what to do
    /// without one, e.g. a private directory under `/tmp` that you check).
    public let runtimeDirectory: String?

    /// The directories of this process's environment.
    public init() {
        self.init { name in getenv(name).map { String(cString: $0) } }
    }

    /// The directories for an environment given as a lookup (for tests).
    public init(environment: (String) -> String?) {
        func absolute(_ value: String?) -> String? { value.flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = absolute(environment("HOME")) ?? absolute(Self.accountHome()) ?? "/"
        let prefix = home == "/" ? "" : home
        self.home = home
        configHome = absolute(environment("XDG_CONFIG_HOME")) ?? prefix + "/.config"
        cacheHome = absolute(environment("XDG_CACHE_HOME")) ?? prefix + "/.cache"
        dataHome = absolute(environment("XDG_DATA_HOME")) ?? prefix + "/.local/share"
        stateHome = absolute(environment("XDG_STATE_HOME")) ?? prefix + "/.local/state"
        runtimeDirectory = absolute(environment("XDG_RUNTIME_DIR"))
    }

    private static func accountHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
