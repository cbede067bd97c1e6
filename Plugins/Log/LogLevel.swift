/// Severity of a log line, lowest first; `level=` drops lines below the chosen one.
enum LogLevel: Int, Comparable {
    case debug, info, warning, error

    /// Parses the `level=` option: debug, info, warning (or warn), error.
    init?(option: String) {
        switch option.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    /// The lower-case name used in both formats.
    var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}
