#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetPluginABI
import Synchronization

/// The host side of one instance's `motet_host` table: what `send_command` and `log` do.
///
/// The table and this object are deliberately never freed: a plugin's own threads may still hold
/// the table after destroy (a bug, but not one that should crash the player), and the cost is a
/// few hundred bytes per instance, made once.
final class PluginHostTable: Sendable {
    let instanceName: String
    private let remoteCommands: Bool
    private let showsDebugMessages: Bool
    private let log: @Sendable (String) -> Void
    private let commands: @Sendable (PlayerCommand, UInt64, String) -> CommandAnswer
    /// The ABI minor the plugin was built against: a full queue is BUSY from 1.1 on.
    private let pluginMinor: UInt32
    /// Refusals logged so far (a plugin that hammers a refused command must not flood the log).
    private let refusalsLogged = Atomic<Int>(0)
    private static let maximumRefusalsLogged = 5

    /// The C table handed to the plugin; `host_data` points back to this object.
    /// Written once in init, then only read (by plugins, through the pointer).
    nonisolated(unsafe) let table: UnsafeMutablePointer<motet_host>

    init(instanceName: String, pluginMinor: UInt32, configuration: PluginHost.Configuration, stateDirectory: String? = nil) {
        self.instanceName = instanceName
        self.pluginMinor = pluginMinor
        self.remoteCommands = configuration.remoteCommands
        self.showsDebugMessages = configuration.showsPluginDebugMessages
        self.log = configuration.log
        self.commands = configuration.commands
        let table = UnsafeMutablePointer<motet_host>.allocate(capacity: 1)
        table.initialize(
            to: motet_host(
                struct_size: UInt32(MemoryLayout<motet_host>.size),
                abi_major: MOTET_ABI_MAJOR, abi_minor: MOTET_ABI_MINOR, reserved: 0,
                host_name: UnsafePointer(strdup("motet")),
                host_version: UnsafePointer(strdup(configuration.hostVersion)),
                instance_name: UnsafePointer(strdup(instanceName)),
                artwork_cache_dir: UnsafePointer(strdup(configuration.artworkCacheDirectory)),
                host_data: nil,
                send_command: { host, command, argument in
                    guard let host, let data = host.pointee.host_data else { return MOTET_COMMAND_REFUSED }
                    return Unmanaged<PluginHostTable>.fromOpaque(data).takeUnretainedValue()
                        .send(command, track: 0, argument, string: nil)
                },
                log: { host, level, message in
                    guard let host, let data = host.pointee.host_data else { return }
                    Unmanaged<PluginHostTable>.fromOpaque(data).takeUnretainedValue()
                        .write(level, LogText.fromPlugin(message))
                },
                send_track_command: { host, command, track, argument, string in
                    guard let host, let data = host.pointee.host_data else { return MOTET_COMMAND_REFUSED }
                    return Unmanaged<PluginHostTable>.fromOpaque(data).takeUnretainedValue()
                        .send(command, track: track, argument, string: string.map { String(cString: $0) })
                },
                state_dir: stateDirectory.map { UnsafePointer(strdup($0)) }))
        self.table = table
        // Retained forever on purpose (see the type's comment).
        table.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    /// `send_command` and `send_track_command`: maps the C code to a `PlayerCommand` and hands it
    /// to the player for `track` (0: whatever is current). Runs on the plugin's thread, whatever it
    /// is; never calls back into the plugin.
    func send(_ code: UInt32, track: UInt64, _ argument: Int64, string: String?) -> Int32 {
        guard let command = Self.command(code, argument, string) else { return MOTET_COMMAND_UNSUPPORTED }
        // The one check of `remote-commands = no` (see PluginHost.Configuration.remoteCommands).
        guard remoteCommands else {
            logRefusal(command, "remote commands are off (remote-commands = no)")
            return MOTET_COMMAND_REFUSED
        }
        switch commands(command, track, instanceName) {
        case .accepted:
            return MOTET_COMMAND_ACCEPTED
        case .refused(let why):
            logRefusal(command, why)
            return MOTET_COMMAND_REFUSED
        case .busy:
            // ABI 1.0 has no "busy": a full queue is a refusal there.
            guard pluginMinor >= 1 else {
                logRefusal(command, "too many commands waiting; try again later")
                return MOTET_COMMAND_REFUSED
            }
            return MOTET_COMMAND_BUSY
        case .unsupported:
            return MOTET_COMMAND_UNSUPPORTED
        }
    }

    /// The C command codes of `motet/plugin.h`, as player commands; nil for a code this host
    /// does not know (a newer plugin), or OPEN_URI without its string.
    static func command(_ code: UInt32, _ argument: Int64, _ string: String? = nil) -> PlayerCommand? {
        switch code {
        case MOTET_COMMAND_PLAY: .play
        case MOTET_COMMAND_PAUSE: .pause
        case MOTET_COMMAND_TOGGLE: .toggle
        case MOTET_COMMAND_NEXT: .next
        case MOTET_COMMAND_PREVIOUS: .previous
        case MOTET_COMMAND_STOP: .stop
        case MOTET_COMMAND_LIKE: .like
        case MOTET_COMMAND_DISLIKE: .dislike
        case MOTET_COMMAND_UNLIKE: .unlike
        case MOTET_COMMAND_SEEK_RELATIVE: .seekRelative(argument)
        case MOTET_COMMAND_SEEK_ABSOLUTE: .seekAbsolute(max(argument, 0))
        case MOTET_COMMAND_SET_VOLUME: .setVolume(Int(min(max(argument, 0), 100)))
        case MOTET_COMMAND_QUIT: .quit
        case MOTET_COMMAND_SET_LOOP: .setLoop(argument == Int64(MOTET_LOOP_PLAYLIST))
        case MOTET_COMMAND_SET_SHUFFLE: .setShuffle(argument != 0)
        case MOTET_COMMAND_OPEN_URI: string.map { .openURI($0) }
        default: nil
        }
    }

    /// `log`: one line, prefixed with the instance name and the level (info has none).
    func write(_ level: UInt32, _ escapedMessage: String) {
        let name = LogText.escaped(instanceName)
        switch level {
        case MOTET_LOG_DEBUG:
            if showsDebugMessages { log("\(name): debug: \(escapedMessage)") }
        case MOTET_LOG_WARNING: log("\(name): warning: \(escapedMessage)")
        case MOTET_LOG_ERROR: log("\(name): error: \(escapedMessage)")
        default: log("\(name): \(escapedMessage)")
        }
    }

    private func logRefusal(_ command: PlayerCommand, _ why: String) {
        let count = refusalsLogged.add(1, ordering: .relaxed).newValue
        guard count <= Self.maximumRefusalsLogged else { return }
        let more = count == Self.maximumRefusalsLogged ? " (further refusals are not logged)" : ""
        log("motet: plugin \(LogText.escaped(instanceName)): command \(command.name) refused: \(LogText.escaped(why))\(more)")
    }
}
