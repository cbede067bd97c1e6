import MotetPluginKit

/// The `log` delegate: one line per player event, to stderr or a file.
///
/// Options:
/// - `path=FILE`: append to FILE (created with mode 0600 when new) instead of stderr. Lines for a
///   stderr that is a terminal go through the host's log, above the player's status line.
/// - `format=text|json`: a human line (default) or one JSON object per line.
/// - `level=debug|info|warning|error`: drop lines below this level (default `info`).
///
/// Levels: nothing-playing/now-playing, playback-state, track-finished and interruption-ended are
/// `info`; the `loading` state and `shutdown` are `debug`; a failed track and interruption-began
/// are `warning`; decode errors are `error`.
public final class LogDelegate: MotetDelegate {
    public static let descriptor = DelegateDescriptor(
        id: "org.motet.log", name: "log", version: "1.0.0",
        description: "Writes one line per player event to stderr or a file (text or JSON)",
        options: [
            OptionDescription("path", .outputPath, help: "a file, appended to (created 0600); standard error when absent"),
            OptionDescription("format", .string, default: "text", help: "text (for people) or json (one object per line)"),
            OptionDescription("level", .string, default: "info", help: "debug, info, warning or error: lines below it are dropped"),
        ])

    private let host: MotetHost
    private let writer: LogWriter
    private let format: LogFormat
    private let threshold: LogLevel

    public init(host: MotetHost, options: PluginOptions) throws {
        self.host = host
        var format = LogFormat.text
        var threshold = LogLevel.info
        var path: String?
        for (key, value) in options.pairs {
            switch key {
            case "path":
                guard !value.isEmpty else { throw DelegateError("path= needs a file name") }
                path = value
            case "format":
                guard let f = LogFormat(option: value) else {
                    throw DelegateError("format=\(value) is not one of text, json")
                }
                format = f
            case "level":
                guard let l = LogLevel(option: value) else {
                    throw DelegateError("level=\(value) is not one of debug, info, warning, error")
                }
                threshold = l
            default:
                host.log(.warning, "ignoring unknown option '\(key)' (known: path, format, level)")
            }
        }
        self.format = format
        self.threshold = threshold
        writer = try path.map { try LogWriter(path: $0) } ?? LogWriter()
    }

    public func nowPlayingChanged(_ info: NowPlayingInfo) {
        guard info.hasTrack else {
            emit(LogRecord(.info, "nothing-playing"))
            return
        }
        var r = LogRecord(.info, "now-playing")
        r.add("title", text: info.title)
        r.add("artist", text: info.artist)
        if info.artists.count > 1 { r.add("artists", .texts(info.artists)) }
        r.add("album", text: info.album)
        if let d = info.durationMicros { r.add("duration", .micros(d)) }
        if let e = info.elapsedMicros { r.add("elapsed", .micros(e)) }
        r.add("rate", .number(info.rate))
        r.add("liked", .flag(info.likeActive))
        r.add("disliked", .flag(info.dislikeActive))
        r.add("next", .flag(info.nextEnabled))
        if let art = info.artwork {
            r.add("artwork", .text(art.mime))
            r.add("artwork-bytes", .integer(Int64(art.bytes.count)))
        }
        r.add("file", text: info.filePath)
        emit(r)
    }

    public func playbackStateChanged(_ state: PlaybackStateInfo) {
        var r = LogRecord(state.state == .loading ? .debug : .info, "playback-state")
        r.add("state", .word(Self.name(of: state)))
        r.add("volume", .integer(Int64(state.volumePercent)))
        r.add("shuffle", .flag(state.shuffle))
        r.add("loop", .flag(state.loop))
        r.add("remote-commands", .flag(state.remoteCommands))
        emit(r)
    }

    public func trackFinished(_ event: TrackFinishedInfo) {
        var r = LogRecord(event.successfully ? .info : .warning, "track-finished")
        r.add("reason", .word(event.reason?.name ?? "unknown"))
        r.add("successfully", .flag(event.successfully))
        r.add("title", text: event.title)
        r.add("file", text: event.filePath)
        emit(r)
    }

    public func decodeErrorOccurred(_ event: DecodeErrorInfo) {
        var r = LogRecord(.error, "decode-error")
        r.add("code", .integer(Int64(event.code)))
        r.add("message", .text(event.message))
        if let p = event.positionMicros { r.add("position", .micros(p)) }
        r.add("file", text: event.filePath)
        emit(r)
    }

    public func interruptionBegan(_ reason: InterruptionKind) {
        var r = LogRecord(.warning, "interruption-began")
        r.add("reason", .word(reason.name))
        emit(r)
    }

    public func interruptionEnded(_ reason: InterruptionKind) {
        var r = LogRecord(.info, "interruption-ended")
        r.add("reason", .word(reason.name))
        emit(r)
    }

    public func shutdown() {
        emit(LogRecord(.debug, "shutdown"))
        writer.close()
    }

    private func emit(_ record: LogRecord) {
        guard record.level >= threshold else { return }
        // On a terminal the player may be drawing its status line: a line written beside it
        // would land in its middle, so it goes through the host, which prints it above the line.
        // (Not a pipe on the player's stderr: that would hold back a crash's last words.)
        if writer.isTerminal {
            host.log(.info, String(decoding: format.render(record, time: Timestamp.now()).dropLast(), as: UTF8.self))
            return
        }
        let hadFailed = writer.failure != nil
        if !writer.write(format.render(record, time: Timestamp.now())), !hadFailed, let why = writer.failure {
            host.log(.error, "cannot write: \(why) (further failures are not reported)")
        }
    }

    static func name(of state: PlaybackStateInfo) -> String {
        switch state.state {
        case .stopped: "stopped"
        case .loading: "loading"
        case .playing: "playing"
        case .paused: "paused"
        case .stalled: "stalled"
        case .complete: "complete"
        case .interrupted: "interrupted"
        case nil: "unknown-\(state.rawState)"
        }
    }

}

/// The one exported symbol: the host finds the delegate through it.
@_cdecl("motet_plugin_entry")
public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
    MotetPluginExport.entry(LogDelegate.self, major, minor)
}
