#if canImport(Glibc)
import Glibc
#endif

/// The user's base directories (XDG Base Directory Specification 0.8), read from one environment:
/// the one place the host turns `XDG_*` and `HOME` into paths (config file, feedback state, artwork
/// cache, user plugins).
///
/// A variable counts only when it holds an absolute path (the specification says relative values
/// are invalid and must be ignored); otherwise the specification's default under ``home`` is used.
///
/// There are exactly two of these helpers: this one for the host, and `XDGDirectories` in
/// MotetPluginKit for plugins. Plugins cannot link a host module (the same Swift module linked into
/// the host and into a plugin duplicates its type metadata: docs/ARCHITECTURE.md, "The C ABI"),
/// and the host does not link the plugin kit for the same reason; both follow the same rules.
public struct XDGDirectories: Sendable, Equatable {
    /// A base directory that has a default under the home directory.
    public enum Kind: Sendable, CaseIterable {
        /// `$XDG_CONFIG_HOME`, default `~/.config`: the config file.
        case config
        /// `$XDG_CACHE_HOME`, default `~/.cache`: the artwork cache.
        case cache
        /// `$XDG_DATA_HOME`, default `~/.local/share`: the user's plugins.
        case data
        /// `$XDG_STATE_HOME`, default `~/.local/state`: likes and dislikes.
        case state

        /// The environment variable, e.g. `XDG_CONFIG_HOME`.
        public var variable: String {
            switch self {
            case .config: "XDG_CONFIG_HOME"
            case .cache: "XDG_CACHE_HOME"
            case .data: "XDG_DATA_HOME"
            case .state: "XDG_STATE_HOME"
            }
        }

        /// Where it is when the variable is unset, relative to the home directory, e.g. `.config`.
        public var defaultUnderHome: String {
            switch self {
            case .config: ".config"
            case .cache: ".cache"
            case .data: ".local/share"
            case .state: ".local/state"
            }
        }
    }

    /// The home directory: `$HOME` when it is an absolute path, else the home directory of this
    /// user's entry in the password database (`getpwuid(getuid())`, what a login would set `HOME`
    /// to), else `/` (nothing an ordinary user can write, rather than a shared place such as `/tmp`
    /// where another user could plant files first).
    public let home: String
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public let configHome: String
    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    public let cacheHome: String
    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    public let dataHome: String
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public let stateHome: String
    /// `$XDG_RUNTIME_DIR` when it is an absolute path; nil otherwise (the specification gives it no
    /// default: each user of it decides what to do without one).
    public let runtimeDirectory: String?

    /// The directories for `environment` (the process environment, or a test's).
    public init(environment: [String: String]) {
        self.init(environment: environment, accountHome: Self.accountHome)
    }

    /// The directories for `environment`, with `accountHome` standing in for the password
    /// database (for tests).
    init(environment: [String: String], accountHome: () -> String?) {
        func absolute(_ value: String?) -> String? { value.flatMap { $0.hasPrefix("/") ? $0 : nil } }
        let home = absolute(environment["HOME"]) ?? absolute(accountHome()) ?? "/"
        func base(_ kind: Kind) -> String {
            absolute(environment[kind.variable]) ?? (home == "/" ? "" : home) + "/" + kind.defaultUnderHome
        }
        self.home = home
        configHome = base(.config)
        cacheHome = base(.cache)
        dataHome = base(.data)
        stateHome = base(.state)
        runtimeDirectory = absolute(environment["XDG_RUNTIME_DIR"])
    }

    /// The base directory of that kind, e.g. `/home/u/.config`.
    public func directory(_ kind: Kind) -> String {
        switch kind {
        case .config: configHome
        case .cache: cacheHome
        case .data: dataHome
        case .state: stateHome
        }
    }

    /// How a path under a base directory reads in help text and man pages:
    /// `documented(.config, "motet/motet.conf")` is
    /// `$XDG_CONFIG_HOME/motet/motet.conf (default ~/.config/motet/motet.conf)`.
    public static func documented(_ kind: Kind, _ path: String) -> String {
        "$\(kind.variable)/\(path) (default ~/\(kind.defaultUnderHome)/\(path))"
    }

    /// The home directory in this user's password database entry, if any.
    static func accountHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}
