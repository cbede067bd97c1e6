import MotetPluginKit
import NowPlayingJSON

#if canImport(Glibc)
import Glibc
#endif

/// The `web` delegate: a now-playing page and a JSON API over HTTP, the lock screen of a headless
/// player (README.md). libmicrohttpd serves on a thread of its own, and the broadcaster sends
/// changes to the pages on another: this queue only records what the host says.
///
/// Options: `listen=ADDRESS:PORT` (default 127.0.0.1:6690). On any address but 127.0.0.1 or ::1
/// every request must carry the token kept in the instance's state directory.
public final class WebDelegate: MotetDelegate {
    public static let descriptor = DelegateDescriptor(
        id: "org.motet.web", name: "web", version: "1.0.0",
        description: "A now-playing page with live updates and buttons, and a JSON API, over HTTP",
        minimumHostMinor: 1,
        options: [
            OptionDescription(
                "listen", .string, default: ListenAddress.defaultValue,
                help: "ADDRESS:PORT to serve on; any address but 127.0.0.1 or [::1] needs the token motet prints")
        ])

    private let host: MotetHost
    private let snapshot: Locked<PlayerSnapshot>
    private let broadcaster: Broadcaster
    private let server: WebServer
    private let box: Locked<Broadcaster?>

    public init(host: MotetHost, options: PluginOptions) throws {
        self.host = host
        let listen: ListenAddress
        switch ListenAddress.parse(options["listen"] ?? ListenAddress.defaultValue) {
        case .success(let l): listen = l
        case .failure(let e): throw DelegateError(e.message)
        }
        var token: String?
        if !listen.isLoopback {
            let directory = host.stateDirectory ?? XDGDirectories().stateHome + "/motet/plugins/web"
            switch AccessToken.loadOrCreate(in: directory) {
            case .success(let t): token = t.token
            case .failure(let e): throw DelegateError("listening on \(listen.address) needs a token: \(e.message)")
            }
        }
        let snapshot = Locked(PlayerSnapshot(process: .current()))
        self.snapshot = snapshot
        let state: @Sendable () -> [UInt8] = { snapshot.withLock { Self.json($0) } }
        // The stream tells the broadcaster how many clients there are; the broadcaster sends to
        // the stream: the box breaks the circle at shutdown.
        let box = Locked<Broadcaster?>(nil)
        self.box = box
        let stream = EventStream(
            clientsChanged: { count in box.withLock { $0 }?.clientsChanged(count) },
            clientDropped: {
                host.log(.info, "dropped a client of /api/events that did not read (\(WebLimits.pendingEventBytes / 1024) KiB were waiting for it)")
            })
        let frame: @Sendable () -> [UInt8] = { Self.event(state()) }
        broadcaster = Broadcaster(frame: frame, send: { stream.broadcast($0) })
        box.withLock { [broadcaster] in $0 = broadcaster }
        let artworkDirectory = host.artworkCacheDirectory
        let router = Router(
            policy: AccessPolicy(listen: listen, token: token), nowPlaying: state,
            send: { host.send($0.command, track: $0.track) },
            artwork: { hash in artworkDirectory.flatMap { hash.read(from: $0) } })
        server = WebServer(router: router, stream: stream, firstEvent: frame)
        guard broadcaster.start() else { throw DelegateError("cannot start the broadcaster thread") }
        if let failure = server.start(listen) {
            broadcaster.stop()
            throw DelegateError(failure)
        }
        let url = listen.url(token: token)
        host.log(.info, "serving \(url)" + (listen.isUnspecified ? " on every address of this machine" : ""))
        if token != nil, isatty(STDERR_FILENO) == 1, let code = TerminalQRCode.render(url) {
            let text = Array((code + "\n").utf8)
            _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    deinit { stopServing() }

    private func stopServing() {
        broadcaster.stop()
        server.stop()
        box.withLock { $0 = nil }
    }

    /// The state as `/api/now-playing` and the events carry it.
    static func json(_ snapshot: PlayerSnapshot) -> [UInt8] {
        var json = JSONWriter()
        snapshot.write(to: &json, extrapolated: false)
        json.newline()
        return json.bytes
    }

    /// One Server-Sent Event with the state (JSON has no raw newline but the last).
    static func event(_ json: [UInt8]) -> [UInt8] {
        Array("event: now-playing\ndata: ".utf8) + json.dropLast() + Array("\n\n".utf8)
    }

    private func change(_ body: (inout PlayerSnapshot) -> Void) {
        snapshot.withLock(body)
        broadcaster.stateChanged()
    }

    public func nowPlayingChanged(_ info: NowPlayingInfo) { change { $0.apply(nowPlaying: info) } }
    public func playbackStateChanged(_ state: PlaybackStateInfo) { change { $0.apply(playbackState: state) } }
    public func decodeErrorOccurred(_ event: DecodeErrorInfo) {
        let at = Clock.wallMicros()
        change { $0.apply(decodeError: event, at: at) }
    }
    public func interruptionBegan(_ reason: InterruptionKind) { change { $0.applyInterruptionBegan(reason) } }
    public func interruptionEnded(_ reason: InterruptionKind) { change { $0.applyInterruptionEnded() } }

    /// Tells the pages that the player is gone, then closes every connection and joins the threads.
    public func shutdown() {
        change { $0.applyShutdown() }
        stopServing()
    }
}

/// The exported entry point.
@_cdecl("motet_plugin_entry")
public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
    MotetPluginExport.entry(WebDelegate.self, major, minor)
}
