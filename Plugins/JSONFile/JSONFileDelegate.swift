import MotetPluginKit
import NowPlayingJSON

#if canImport(Glibc)
import Glibc
#endif

/// The `json` delegate: keeps a file that always holds the player's current state, replaced
/// atomically on every change, and optionally appends every event to an events file.
///
/// Options:
/// - `path=FILE`: the state file (default `$XDG_RUNTIME_DIR/motet/now-playing.json`, or
///   `/tmp/motet-$UID/now-playing.json` when XDG_RUNTIME_DIR is unset; the default is said once,
///   at start). The host expands `~/`.
/// - `events=FILE`: also append every event as one JSON line (created 0600 when new).
/// - `interval=SECONDS`: while playing, rewrite the state file this often with a fresh `elapsed`
///   (default: only on changes). From 0.1 to 3600.
///
/// Both files are described by the JSON Schemas in `Plugins/JSONFile/schema/`.
public final class JSONFileDelegate: MotetDelegate {
    public static let descriptor = DelegateDescriptor(
        id: "org.motet.json", name: "json", version: "1.1.0",
        description: "Keeps a JSON file with what is playing (atomically replaced) and an optional events log",
        options: [
            OptionDescription(
                "path", .outputPath, default: "$XDG_RUNTIME_DIR/motet/now-playing.json",
                help: "the state file, replaced atomically"),
            OptionDescription("events", .outputPath, help: "also append every event to this file, one JSON object per line"),
            OptionDescription(
                "interval", .duration, help: "while playing, rewrite the state file this often (0.1 to 3600 s); only on changes when absent"),
        ])

    private let host: MotetHost
    private let files: StateFiles
    private let timer: RefreshTimer?

    public init(host: MotetHost, options: PluginOptions) throws {
        self.host = host
        var path: String?
        var eventsPath: String?
        var intervalMicros: Int64?
        for (key, value) in options.pairs {
            switch key {
            case "path":
                guard !value.isEmpty else { throw DelegateError("path= needs a file name") }
                path = value
            case "events":
                guard !value.isEmpty else { throw DelegateError("events= needs a file name") }
                eventsPath = value
            case "interval":
                guard let seconds = Double(value), seconds >= 0.1, seconds <= 3600 else {
                    throw DelegateError("interval=\(value) is not a number of seconds from 0.1 to 3600")
                }
                intervalMicros = Int64(seconds * 1_000_000)
            default:
                host.log(.warning, "ignoring unknown option '\(key)' (known: path, events, interval)")
            }
        }
        let statePath: String
        if let path {
            statePath = path
        } else {
            switch DefaultLocation.stateFile() {
            case .success(let p): statePath = p
            case .failure(let e): throw DelegateError("no place for the state file: \(e.reason)")
            }
        }
        files = try StateFiles(host: host, statePath: statePath, eventsPath: eventsPath)
        // Said once, so that a user who did not choose the file knows where to look.
        if path == nil { host.log(.info, "state file: \(statePath) (path= chooses another)") }
        if let intervalMicros {
            let files = self.files
            let timer = RefreshTimer(intervalMicros: intervalMicros) { files.refreshElapsed() }
            guard timer.start() else { throw DelegateError("cannot start the refresh thread") }
            self.timer = timer
        } else {
            timer = nil
        }
    }

    deinit { timer?.stop() }

    public func nowPlayingChanged(_ info: NowPlayingInfo) {
        files.update(event: "now-playing", fields: { _ in }) { $0.apply(nowPlaying: info) }
    }

    public func playbackStateChanged(_ state: PlaybackStateInfo) {
        let (fileState, playerState) = PlayerSnapshot.fileState(state)
        files.update(event: "playback-state", fields: { json in
            json.key("state"); json.string(fileState)
            json.key("playerState"); json.string(playerState)
        }) { $0.apply(playbackState: state) }
    }

    public func trackFinished(_ event: TrackFinishedInfo) {
        files.update(event: "track-finished", fields: { json in
            json.key("reason"); json.string(event.reason?.name ?? "unknown")
            json.key("successfully"); json.bool(event.successfully)
            json.key("trackId"); json.integer(Int64(truncatingIfNeeded: event.trackID))
            json.key("file"); json.string(event.filePath)
            json.key("title"); json.string(event.title)
        }) { _ in }
    }

    public func decodeErrorOccurred(_ event: DecodeErrorInfo) {
        let at = Clock.wallMicros()
        files.update(event: "decode-error", fields: { json in
            json.key("error"); PlayerSnapshot.writeError(event, at: at, to: &json)
            json.key("trackId"); json.integer(Int64(truncatingIfNeeded: event.trackID))
        }) { $0.apply(decodeError: event, at: at) }
    }

    public func interruptionBegan(_ reason: InterruptionKind) {
        files.update(event: "interruption-began", fields: { json in
            json.key("reason"); json.string(reason.name)
        }) { $0.applyInterruptionBegan(reason) }
    }

    public func interruptionEnded(_ reason: InterruptionKind) {
        files.update(event: "interruption-ended", fields: { json in
            json.key("reason"); json.string(reason.name)
        }) { $0.applyInterruptionEnded() }
    }

    /// Stops the refresh thread, then leaves the file saying that nothing plays any more.
    public func shutdown() {
        timer?.stop()
        files.update(event: "shutdown", fields: { _ in }) { $0.applyShutdown() }
        files.close()
    }
}

/// The exported entry point.
@_cdecl("motet_plugin_entry")
public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
    MotetPluginExport.entry(JSONFileDelegate.self, major, minor)
}
