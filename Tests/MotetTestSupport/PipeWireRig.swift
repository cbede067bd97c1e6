import Foundation
import Glibc

/// A private PipeWire for tests — the sound server of Debian 12's GNOME desktop: `pipewire`, the
/// `wireplumber` session manager and `pipewire-pulse` (the PulseAudio protocol, which Motet
/// speaks), on their own runtime directory and session bus, with a real-time capture sink
/// like `PulseRig`'s, so that what a client played can be compared byte for byte.
///
/// Recipe (verified with PipeWire 0.3.65, WirePlumber 0.4.13 on Debian 12, as root):
/// ```sh
/// export XDG_RUNTIME_DIR=$T/run HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_STATE_HOME=$T/home/.local/state
/// mkdir -m 700 -p $XDG_RUNTIME_DIR; export DBUS_SESSION_BUS_ADDRESS=…   # a private bus (RECIPES)
/// mkdir -p $XDG_CONFIG_HOME/pipewire/pipewire.conf.d
/// printf 'context.properties = {\n default.clock.rate = 44100\n default.clock.allowed-rates = [ 44100 48000 ]\n}\n' \
///   > $XDG_CONFIG_HOME/pipewire/pipewire.conf.d/motet-test.conf
/// pipewire & wireplumber & pipewire-pulse &          # pulse socket: $XDG_RUNTIME_DIR/pulse/native
/// pactl load-module module-pipe-sink sink_name=pipert file=$T/pipert.fifo format=s16le rate=44100 channels=2
/// cat $T/pipert.fifo > $T/cap.raw &
/// ```
/// - pipewire-pulse implements `module-pipe-sink` itself (with PipeWire's pipe-tunnel); it is paced
///   by the graph's clock, so in real time.
/// - The graph runs at 48 kHz by default and resamples a 44.1 kHz stream: paplay of a 2 s sweep
///   then differed from the WAV in 2666 of 352,800 samples (by up to ±30). Nothing is resampled when
///   the graph may run at the stream's rate: `default.clock.allowed-rates = [ 44100 48000 ]` alone
///   was enough (an idle graph switches to the rate of the stream that starts), and so was
///   `default.clock.rate = 44100`; 88,200 of 88,200 frames, bit-exact — PipeWire's s16 → f32 → s16
///   round trip at volume 1.0 is exact. The rig sets both, so the capture's rate never depends on
///   the graph being idle when a stream starts (after a restart, say).
/// - The pipe sink writes only while the graph runs it: unlike PulseAudio's, it adds no silence
///   while nothing plays (and WirePlumber suspends it after a few idle seconds).
/// - WirePlumber's default policy does not cork other streams for a `media.role=phone` stream
///   (issue #15; PulseAudio's module-role-cork does): a player must notice calls itself.
/// - Killing all three and starting them again in the same directories is "lost the sound server";
///   the pipe sink must be loaded again. The dead pipewire's `pipewire-0` stays behind: the rig
///   removes it and starts WirePlumber and pipewire-pulse only once the new pipewire answers
///   (waiting for the file let pipewire-pulse start first and fail, issue 26).
public final class PipeWireRig: SoundServerRig, @unchecked Sendable {
    /// The sink that writes to the capture file (the same name as `PulseRig`'s).
    public static let sinkName = PulseRig.sinkName
    /// The rig's own temporary directory (runtime, home, FIFO, capture, logs).
    public let directory: String
    /// Sample rate (also the graph's clock rate) and channel count of the capture sink (s16le).
    public let rate: Int
    public let channels: Int

    private let lock = NSLock()
    private var processes: [SpawnedProcess] = []
    private var reader: SpawnedProcess?
    /// The capture reader (`cat`), for a test that holds it up.
    public var readerProcess: SpawnedProcess? { lock.withLock { reader } }
    private let bus: DBusRig

    /// XDG_RUNTIME_DIR: PipeWire's socket (pipewire-0) and pipewire-pulse's (pulse/native).
    public var runtimePath: String { directory + "/run" }
    /// The address a pulse client passes to `pa_context_connect` (or PULSE_SERVER).
    public var serverAddress: String { "unix:" + runtimePath + "/pulse/native" }
    /// The FIFO the pipe sink writes to.
    public var fifoPath: String { directory + "/pipert.fifo" }
    /// Everything the pipe sink wrote, across restarts (appended).
    public var capturePath: String { directory + "/capture.raw" }
    /// What the servers and the PipeWire tools (pw-dump, pw-cli) need.
    public var serverEnvironment: [String: String] {
        [
            "XDG_RUNTIME_DIR": runtimePath, "HOME": directory + "/home", "XDG_CONFIG_HOME": directory + "/home/.config",
            "XDG_STATE_HOME": directory + "/home/.local/state", "PIPEWIRE_RUNTIME_DIR": runtimePath,
            "PULSE_RUNTIME_PATH": runtimePath + "/pulse",
        ].merging(bus.environment) { $1 }
    }

    /// What a pulse client process (Motet, paplay) needs to play into the capture sink.
    public var environment: [String: String] {
        ["PULSE_SERVER": serverAddress, "PULSE_SINK": Self.sinkName]
    }

    /// Starts PipeWire, WirePlumber, pipewire-pulse and the capture; throws with the logs' tails if
    /// they do not come up.
    public init(rate: Int = 44100, channels: Int = 2) throws {
        self.rate = rate
        self.channels = channels
        directory = try Paths.temporaryDirectory("motet-pipewire")
        bus = try DBusRig(directory: directory)
        let confDirectory = directory + "/home/.config/pipewire/pipewire.conf.d"
        for path in [runtimePath, confDirectory, directory + "/home/.local/state"] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        chmod(runtimePath, 0o700)
        let conf = """
            # The graph's clock at the capture's rate: a stream at that rate is not resampled.
            context.properties = {
                default.clock.rate = \(rate)
                default.clock.allowed-rates = [ \(rate == 48000 ? "48000" : "\(rate) 48000") ]
            }

            """
        try conf.write(toFile: confDirectory + "/motet-test.conf", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: capturePath, contents: nil)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The PIDs of pipewire, wireplumber and pipewire-pulse while they run (for CPU accounting).
    public var serverPIDs: [Int32] { lock.withLock { processes.filter(\.isRunning).map(\.pid) } }

    /// Starts the three servers in order, each only once the one before it answers. `delay`
    /// holds pipewire back that many seconds (a slow start, as on a loaded machine: the rig's own
    /// test).
    private func start(pipewireDelay delay: Double = 0) throws {
        // A SIGKILLed server leaves its sockets and lock files behind: remove them, so that no
        // client (WirePlumber, pipewire-pulse, pactl) meets a dead server's socket.
        for stale in ["pipewire-0", "pipewire-0.lock", "pipewire-0-manager", "pipewire-0-manager.lock", "pulse/native", "pulse/pid"] {
            unlink(runtimePath + "/" + stale)
        }
        for name in ["pipewire", "wireplumber", "pipewire-pulse"] {
            let argv = name == "pipewire" && delay > 0 ? ["sh", "-c", "sleep \(delay); exec pipewire"] : [name]
            let process = try SpawnedProcess(
                argv, environment: serverEnvironment, stdout: logPath(name), appendOutput: true, stderr: logPath(name))
            lock.withLock { processes.append(process) }
            if name == "pipewire" {
                // Its socket accepts a connection and it answers a request: only then can
                // WirePlumber and pipewire-pulse connect.
                let socket = runtimePath + "/pipewire-0"
                try Readiness.wait(
                    for: "pipewire", answering: "a connection to \(socket) and pw-cli info 0", timeout: 10 + delay,
                    process: process, detail: { logTail() }
                ) {
                    Readiness.unixSocketAccepts(socket)
                        && (try? Shell.run(["pw-cli", "info", "0"], environment: serverEnvironment, timeout: 5).status) == 0
                }
            }
        }
        // pipewire-pulse answers once it has the graph; WirePlumber has made the dummy sink by then
        // or soon after (our pipe sink needs no session manager, but stream routing does).
        let pulse = lock.withLock { processes.last }
        try Readiness.wait(
            for: "pipewire-pulse", answering: "pactl info on \(serverAddress)", timeout: 20, process: pulse,
            detail: { logTail() }
        ) { (try? self.pactl(["info"]).status) == 0 }
        guard lock.withLock({ processes.allSatisfy(\.isRunning) }) else {
            throw TestError.failed("a PipeWire server exited during start-up: \(logTail())")
        }
        try checkedPactl(
            [
                "load-module", "module-pipe-sink", "sink_name=\(Self.sinkName)", "file=\(fifoPath)", "format=s16le",
                "rate=\(rate)", "channels=\(channels)",
            ] + (PulseRig.wavChannelMap[channels].map { ["channel_map=\($0)"] } ?? []))
        // WirePlumber keeps the default sink in its "default" metadata, which may not exist yet
        // just after start-up ("Not supported"): ask again until it does.
        let defaultSet = try Shell.waitUntil(timeout: 10) {
            (try? self.pactl(["set-default-sink", Self.sinkName]).status) == 0
        }
        if !defaultSet { try checkedPactl(["set-default-sink", Self.sinkName]) }  // throws with the reason
        try enlargeCapturePipe(fifoPath: fifoPath)
        let cat = try SpawnedProcess(["cat", fifoPath], stdout: capturePath, appendOutput: true)
        lock.withLock { reader = cat }
    }

    private func logPath(_ name: String) -> String { directory + "/\(name).log" }

    /// `pw-dump`: the whole PipeWire graph as JSON (nodes with their properties).
    public func pwDump() throws -> String {
        let r = try Shell.run(["pw-dump"], environment: serverEnvironment, timeout: 10)
        guard r.status == 0 else { throw TestError.failed("pw-dump failed: \(r.stderr)") }
        return r.stdout
    }

    /// Kills the three servers with SIGKILL (a crash, as a client sees it) and waits for them and
    /// the reader. The capture so far stays.
    public func kill() {
        let (all, r) = lock.withLock { (processes, reader) }
        for p in all.reversed() {
            p.signal(SIGKILL)
            p.wait(timeout: 10)
        }
        if let r, !r.wait(timeout: 5) { r.stop() }
        lock.withLock {
            processes = []
            reader = nil
        }
    }

    /// Starts the servers again in the same directories; the capture goes on at the end of the
    /// same file.
    public func restart() throws {
        kill()
        try start()
    }

    /// `restart()`, with pipewire itself starting only `pipewireDelay` seconds after it is
    /// spawned: a slow start, which the rig must wait for (its own test).
    public func restart(pipewireDelay: Double) throws {
        kill()
        try start(pipewireDelay: pipewireDelay)
    }

    /// Stops everything (by PID) and removes the directory.
    public func stop() {
        let (all, r) = lock.withLock { (processes, reader) }
        for p in all.reversed() { p.stop() }
        r?.stop(timeout: 1)
        bus.stop()
        lock.withLock {
            processes = []
            reader = nil
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The last lines of the servers' logs, for error messages.
    public func logTail(_ lines: Int = 8) -> String {
        ["pipewire", "wireplumber", "pipewire-pulse"].map { name in
            let text = (try? String(contentsOfFile: logPath(name), encoding: .utf8)) ?? "(no log)"
            return "\(name): " + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
