import Foundation
import Glibc

/// A private PulseAudio server for tests (`pulseaudio -n`: no default script, only the modules it
/// is given): its own temporary directory, a null sink, the native protocol on a unix socket, and
/// a `module-pipe-sink` named `pipert`, paced by the system clock
/// (`use_system_clock_for_timing=yes`; without it the sink runs far faster than real time), whose
/// FIFO is read by `cat` into a capture file — so what a client played can be compared byte for
/// byte, at real-time speed (recording the null sink's monitor instead loses the first 50 to
/// 350 ms).
///
/// Use it in-process (pass `serverAddress` and `sinkName` to the code under test) or for a child
/// process (`environment`: PULSE_SERVER, PULSE_RUNTIME_PATH, PULSE_SINK). Everything is started
/// and stopped by PID; `stop()` (or deinit) removes the directory.
///
/// ```swift
/// let rig = try PulseRig(roleCork: true)
/// defer { rig.stop() }
/// try Shell.check(["paplay", "x.wav"], environment: rig.environment)
/// let bytes = rig.capturedBytes()         // s16le, `channels` interleaved, at `rate`
/// ```
public final class PulseRig: SoundServerRig, @unchecked Sendable {
    /// The sink that writes to the capture file.
    public static let sinkName = "pipert"
    /// The rig's own temporary directory (runtime, state, home, FIFO, capture, log).
    public let directory: String
    /// Sample rate and channel count of the capture sink (s16le).
    public let rate: Int
    public let channels: Int
    /// Whether `module-role-cork` is loaded (a `media.role=phone` stream corks `music` streams).
    public let roleCork: Bool

    private let lock = NSLock()
    private var server: SpawnedProcess?
    private var reader: SpawnedProcess?
    /// The capture reader (`cat`), for a test that holds it up.
    public var readerProcess: SpawnedProcess? { lock.withLock { reader } }

    /// The server's socket directory.
    public var runtimePath: String { directory + "/run" }
    /// The address a client passes to `pa_context_connect` (or PULSE_SERVER).
    public var serverAddress: String { "unix:" + runtimePath + "/native" }
    /// The FIFO the pipe sink writes to.
    public var fifoPath: String { directory + "/pipert.fifo" }
    /// Everything the pipe sink wrote, across restarts (appended).
    public var capturePath: String { directory + "/capture.raw" }
    /// The server's log.
    public var logPath: String { directory + "/pulseaudio.log" }
    /// PulseAudio channel maps in WAV (WAVEFORMATEXTENSIBLE) order, so that a capture with more
    /// than two channels is in the same order as a WAV file of the same audio.
    public static let wavChannelMap: [Int: String] = [
        1: "mono", 2: "front-left,front-right", 3: "front-left,front-right,front-center",
        4: "front-left,front-right,rear-left,rear-right",
        5: "front-left,front-right,front-center,rear-left,rear-right",
        6: "front-left,front-right,front-center,lfe,rear-left,rear-right",
        7: "front-left,front-right,front-center,lfe,rear-center,side-left,side-right",
        8: "front-left,front-right,front-center,lfe,rear-left,rear-right,side-left,side-right",
    ]

    /// What a client process needs to play into the capture sink.
    public var environment: [String: String] {
        ["PULSE_SERVER": serverAddress, "PULSE_RUNTIME_PATH": runtimePath, "PULSE_SINK": Self.sinkName]
    }

    /// Starts a server (and the capture reader); throws with the log's tail if it does not come up.
    public init(rate: Int = 44100, channels: Int = 2, roleCork: Bool = false) throws {
        self.rate = rate
        self.channels = channels
        self.roleCork = roleCork
        directory = try Paths.temporaryDirectory("motet-pulse")
        for sub in ["run", "state", "home"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        _ = FileManager.default.createFile(atPath: capturePath, contents: nil)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The server's PID while it runs.
    public var serverPID: Int32? { lock.withLock { server?.isRunning == true ? server?.pid : nil } }

    /// Starts the server, the pipe sink, the reader and (if asked) role-cork.
    private func start() throws {
        let serverEnvironment = [
            "PULSE_RUNTIME_PATH": runtimePath, "PULSE_STATE_PATH": directory + "/state", "HOME": directory + "/home",
            "XDG_CONFIG_HOME": directory + "/home/.config",
        ]
        let process = try SpawnedProcess(
            [
                "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                "--log-target=file:\(logPath)", "-L", "module-null-sink sink_name=nullsink rate=\(rate) channels=\(channels)",
                "-L", "module-native-protocol-unix",
            ], environment: serverEnvironment)
        lock.withLock { server = process }
        // pactl info answers only from a live server (a SIGKILLed one leaves its socket file,
        // which pulseaudio removes as stale).
        try Readiness.wait(
            for: "pulseaudio", answering: "pactl info on \(serverAddress)", timeout: 15, process: process,
            detail: { logTail() }
        ) { (try? pactl(["info"]).status) == 0 }
        try checkedPactl([
            "load-module", "module-pipe-sink", "sink_name=\(Self.sinkName)", "file=\(fifoPath)", "format=s16le",
            "rate=\(rate)", "channels=\(channels)", "use_system_clock_for_timing=yes",
        ] + (Self.wavChannelMap[channels].map { ["channel_map=\($0)"] } ?? []))
        try checkedPactl(["set-default-sink", Self.sinkName])
        try enlargeCapturePipe(fifoPath: fifoPath)
        let cat = try SpawnedProcess(["cat", fifoPath], stdout: capturePath, appendOutput: true)
        lock.withLock { reader = cat }
        if roleCork { try checkedPactl(["load-module", "module-role-cork"]) }
    }

    /// Kills the server with SIGKILL (a crash, as a client sees it) and waits for it and the
    /// reader to end. The capture so far stays.
    public func kill() {
        let (s, r) = lock.withLock { (server, reader) }
        if let s {
            s.signal(SIGKILL)
            s.wait(timeout: 10)
        }
        if let r {
            // The FIFO has no writer any more: cat reads EOF and ends.
            if !r.wait(timeout: 5) { r.stop() }
        }
        lock.withLock {
            server = nil
            reader = nil
        }
    }

    /// Starts the server again in the same directory (same socket, same sinks); the capture goes
    /// on at the end of the same file.
    public func restart() throws {
        kill()
        try start()
    }

    /// Stops the server and the reader (by PID) and removes the directory.
    public func stop() {
        let (s, r) = lock.withLock { (server, reader) }
        s?.stop()
        r?.stop(timeout: 1)
        lock.withLock {
            server = nil
            reader = nil
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Waits until what was captured after byte `offset` holds sound followed by at least
    /// `silence` seconds of silence (the pipe sink writes silence while nothing plays, so the
    /// capture never stops growing), and returns the bytes after `offset`; nil on timeout.
    public func captureAfterSound(from offset: Int = 0, silence: Double = 0.3, timeout: Double = 15) -> [UInt8]? {
        let quiet = Int(silence * Double(rate)) * frameBytes
        var result: [UInt8]?
        _ = try? Shell.waitUntil(timeout: timeout) {
            let bytes = Array(capturedBytes().dropFirst(offset))
            guard let last = bytes.lastIndex(where: { $0 != 0 }), bytes.count - last > quiet else { return false }
            result = bytes
            return true
        }
        return result
    }

    /// The last lines of the server's log, for error messages.
    public func logTail(_ lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "(no log)"
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    /// The bytes of `bytes` from its first to its last non-silent frame (`nonSilentFrames`), or
    /// none when all is silence: what was played, without the silence a capture starts and ends with.
    public static func nonSilent(_ bytes: [UInt8], frameBytes: Int) -> [UInt8] {
        guard let r = nonSilentFrames(bytes, frameBytes: frameBytes) else { return [] }
        return Array(bytes[(r.lowerBound * frameBytes)..<(r.upperBound * frameBytes)])
    }

    /// The frames (as a range of frame indices) from the first to the last frame with a non-zero
    /// byte, or nil when all is silence. Captures start and end with silence; align on this.
    public static func nonSilentFrames(_ bytes: [UInt8], frameBytes: Int) -> Range<Int>? {
        guard let first = bytes.firstIndex(where: { $0 != 0 }), let last = bytes.lastIndex(where: { $0 != 0 }) else {
            return nil
        }
        return (first / frameBytes)..<(last / frameBytes + 1)
    }
}
