/// The host as a delegate sees it: send commands, write to the log, find the artwork cache.
/// All methods are thread-safe: call them from any thread, including your own.
public final class MotetHost: Sendable {
    // The host table lives until the instance is destroyed and is never written, and its
    // functions are thread-safe by contract: sharing the pointer is safe.
    private nonisolated(unsafe) let table: UnsafePointer<motet_host>

    init(_ table: UnsafePointer<motet_host>) { self.table = table }

    /// The answer to a command.
    public enum CommandAnswer: Sendable, Equatable {
        case accepted, refused, unsupported
    }

    /// Remote commands a delegate can send.
    public enum Command: Sendable, Equatable {
        case play, pause, toggle, next, previous, stop, like, dislike, unlike
        /// Offset in microseconds.
        case seekRelative(Int64)
        /// Microseconds from the start of the track.
        case seekAbsolute(Int64)
        /// 0 to 100.
        case setVolume(Int)
        case quit

        var raw: (UInt32, Int64) {
            switch self {
            case .play: (MOTET_COMMAND_PLAY, 0)
            case .pause: (MOTET_COMMAND_PAUSE, 0)
            case .toggle: (MOTET_COMMAND_TOGGLE, 0)
            case .next: (MOTET_COMMAND_NEXT, 0)
            case .previous: (MOTET_COMMAND_PREVIOUS, 0)
            case .stop: (MOTET_COMMAND_STOP, 0)
            case .like: (MOTET_COMMAND_LIKE, 0)
            case .dislike: (MOTET_COMMAND_DISLIKE, 0)
            case .unlike: (MOTET_COMMAND_UNLIKE, 0)
            case .seekRelative(let us): (MOTET_COMMAND_SEEK_RELATIVE, us)
            case .seekAbsolute(let us): (MOTET_COMMAND_SEEK_ABSOLUTE, us)
            case .setVolume(let v): (MOTET_COMMAND_SET_VOLUME, Int64(v))
            case .quit: (MOTET_COMMAND_QUIT, 0)
            }
        }
    }

    public enum LogLevel: UInt32, Sendable {
        case debug = 0, info = 1, warning = 2, error = 3
    }

    /// Ask the player to do something. Only enqueues; the outcome shows up in later events.
    @discardableResult
    public func send(_ command: Command) -> CommandAnswer {
        guard let send = table.pointee.send_command else { return .unsupported }
        let (code, argument) = command.raw
        switch send(table, code, argument) {
        case MOTET_COMMAND_ACCEPTED: return .accepted
        case MOTET_COMMAND_REFUSED: return .refused
        default: return .unsupported
        }
    }

    /// One line in the host's log, prefixed with the instance name.
    public func log(_ level: LogLevel, _ message: String) {
        guard let log = table.pointee.log else { return }
        message.withCString { log(table, level.rawValue, $0) }
    }

    /// The name the user gave this instance.
    public var instanceName: String { Self.string(table.pointee.instance_name) ?? "" }
    /// Where the host caches artwork files.
    public var artworkCacheDirectory: String? { Self.string(table.pointee.artwork_cache_dir) }
    public var hostVersion: String { Self.string(table.pointee.host_version) ?? "" }
    public var abiMinor: UInt32 { table.pointee.abi_minor }

    static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
}
