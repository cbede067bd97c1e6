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
        /// The instance's command queue is full (a flood): nothing was queued; try again later.
        case busy
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
        /// Whether the queue starts again after its last track (MPRIS LoopStatus).
        case setLoop(Bool)
        /// Whether the queue plays in a random order (MPRIS Shuffle).
        case setShuffle(Bool)
        /// A file path or file:// URI, appended to the queue and played at once (MPRIS OpenUri).
        case openURI(String)

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
            case .setLoop(let on): (MOTET_COMMAND_SET_LOOP, Int64(on ? MOTET_LOOP_PLAYLIST : MOTET_LOOP_NONE))
            case .setShuffle(let on): (MOTET_COMMAND_SET_SHUFFLE, on ? 1 : 0)
            case .openURI: (MOTET_COMMAND_OPEN_URI, 0)
            }
        }

        var stringArgument: String? {
            if case .openURI(let uri) = self { return uri }
            return nil
        }
    }

    public enum LogLevel: UInt32, Sendable {
        case debug = 0, info = 1, warning = 2, error = 3
    }

    /// Ask the player to do something, for the track `track` (a `trackID` from an event; 0:
    /// whatever is current when the player acts on it). A command for a track that is no longer
    /// current is refused (stale), one for an id that never named a track too (no such track), and
    /// every command once the player has stopped (at exit). Only enqueues; the outcome shows up in
    /// later events.
    @discardableResult
    public func send(_ command: Command, track: UInt64 = 0) -> CommandAnswer {
        let (code, argument) = command.raw
        let answer: Int32
        if table.pointee.struct_size >= MOTET_HOST_SIZE_1_1, let send = table.pointee.send_track_command {
            if let text = command.stringArgument {
                answer = text.withCString { send(table, code, track, argument, $0) }
            } else {
                answer = send(table, code, track, argument, nil)
            }
        } else {
            // An ABI 1.0 host: no track, no string argument.
            guard track == 0, command.stringArgument == nil, let send = table.pointee.send_command else {
                return .unsupported
            }
            answer = send(table, code, argument)
        }
        switch answer {
        case MOTET_COMMAND_ACCEPTED: return .accepted
        case MOTET_COMMAND_REFUSED: return .refused
        case MOTET_COMMAND_BUSY: return .busy
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
    /// This instance's own directory (ABI 1.2, `state_dir`): keep what must survive a restart
    /// here; a sandboxed plugin may write here. Nil from a host older than ABI 1.2, or when the
    /// host could not make it.
    public var stateDirectory: String? {
        table.pointee.struct_size >= MOTET_HOST_SIZE_1_2 ? Self.string(table.pointee.state_dir) : nil
    }
    public var hostVersion: String { Self.string(table.pointee.host_version) ?? "" }
    public var abiMinor: UInt32 { table.pointee.abi_minor }

    static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    /// Copies of a C array of `count` strings (NULL entries skipped).
    static func strings(_ list: UnsafePointer<UnsafePointer<CChar>?>?, count: UInt32) -> [String] {
        guard let list else { return [] }
        return (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } }
    }
}
