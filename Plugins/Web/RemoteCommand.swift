import MotetPluginKit

/// A command from `POST /api/command`: `{"command": "like", "track": 12}`, with `"value"` for
/// `volume` (0–100) and `seek` (seconds from the start of the track). `track` (optional) names
/// the track the command is meant for, as `trackId` in `/api/now-playing`: the host refuses the
/// command if another one is current by then.
struct RemoteCommand: Equatable, Sendable {
    var command: MotetHost.Command
    var track: UInt64

    /// The commands a client may send, by name (the README's table).
    static let names = ["play", "pause", "toggle", "next", "previous", "like", "dislike", "unlike", "volume", "seek"]

    /// The command in `body`, or why not (one line for the client).
    static func parse(_ body: [UInt8]) -> Result<RemoteCommand, CommandError> {
        guard let json = JSONValue.parse(body) else { return .failure(CommandError("the body is not JSON")) }
        guard case .object = json else { return .failure(CommandError("the body must be a JSON object")) }
        guard case .string(let name) = json["command"] else {
            return .failure(CommandError("\"command\" must be one of \(names.joined(separator: ", "))"))
        }
        var track: UInt64 = 0
        switch json["track"] {
        case nil, .null?: break
        case .number(let text, _)?:
            guard let id = UInt64(text) else { return .failure(CommandError("\"track\" must be a track id (a whole number)")) }
            track = id
        default: return .failure(CommandError("\"track\" must be a track id (a whole number)"))
        }
        let command: MotetHost.Command
        switch name {
        case "play": command = .play
        case "pause": command = .pause
        case "toggle": command = .toggle
        case "next": command = .next
        case "previous": command = .previous
        case "like": command = .like
        case "dislike": command = .dislike
        case "unlike": command = .unlike
        case "volume":
            guard case .number(_, let v)? = json["value"], v >= 0, v <= 100 else {
                return .failure(CommandError("\"value\" must be a volume from 0 to 100"))
            }
            command = .setVolume(Int(v.rounded()))
        case "seek":
            guard case .number(_, let s)? = json["value"], s >= 0, s <= 1e9 else {
                return .failure(CommandError("\"value\" must be a position in seconds (0 or more)"))
            }
            command = .seekAbsolute(Int64(s * 1_000_000))
        default:
            return .failure(CommandError("unknown command; it must be one of \(names.joined(separator: ", "))"))
        }
        return .success(RemoteCommand(command: command, track: track))
    }
}

/// Why a command body was not understood.
struct CommandError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
