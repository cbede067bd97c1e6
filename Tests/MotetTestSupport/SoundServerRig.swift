import Foundation
import Glibc

/// A private sound server that speaks the PulseAudio protocol, with a real-time pipe sink
/// (`pipert`) whose FIFO is read into a capture file: `PulseRig` (PulseAudio) and `PipeWireRig`
/// (PipeWire with pipewire-pulse). Tests that only need "a server to play into and a capture of
/// what was played" take any of them.
public protocol SoundServerRig: AnyObject, Sendable {
    /// The rig's own temporary directory.
    var directory: String { get }
    /// Sample rate and channel count of the capture sink (s16le).
    var rate: Int { get }
    var channels: Int { get }
    /// The address a pulse client passes to `pa_context_connect` (or PULSE_SERVER).
    var serverAddress: String { get }
    /// Everything the pipe sink wrote, across restarts (appended).
    var capturePath: String { get }
    /// What a client process needs to play into the capture sink.
    var environment: [String: String] { get }
    /// Kills the server with SIGKILL (a crash, as a client sees it); the capture so far stays.
    func kill()
    /// Starts the server again in the same directory (same socket, same sinks); the capture goes
    /// on at the end of the same file.
    func restart() throws
    /// The server's log's last lines, for error messages.
    func logTail(_ lines: Int) -> String
}

extension SoundServerRig {
    /// The capture FIFO's size (`enlargeCapturePipe`).
    public static var capturePipeBytes: Int32 { 1 << 20 }

    /// Bytes per frame in the capture.
    public var frameBytes: Int { 2 * channels }

    /// Everything captured so far (s16le, interleaved).
    public func capturedBytes() -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: capturePath)))) ?? []
    }

    /// The capture FIFO's pipe, enlarged to 1 MiB (1.5 s of 8 channels at 44.1 kHz), so that a
    /// reader (`cat`) the scheduler holds up on a loaded machine loses nothing: both pipe sinks
    /// (PulseAudio's with `use_system_clock_for_timing`, PipeWire's pipe tunnel) keep real time and
    /// drop what does not fit, and a default pipe (64 KiB) holds 93 ms of 8 channels (issue 26: a
    /// 6-channel capture lost 1,360 frames in a hunt's run). Called once the sink has opened the
    /// FIFO: the size belongs to the pipe, which lives as long as the sink holds it open.
    func enlargeCapturePipe(fifoPath: String) throws {
        let fd = open(fifoPath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw TestError.failed("cannot open the capture FIFO \(fifoPath): errno \(errno)") }
        defer { close(fd) }
        // F_SETPIPE_SZ (F_LINUX_SPECIFIC_BASE + 7; Glibc's module does not export it). 1 MiB is the
        // most an unprivileged process may ask for (/proc/sys/fs/pipe-max-size).
        let setPipeSize: Int32 = 1024 + 7
        guard fcntl(fd, setPipeSize, Self.capturePipeBytes) >= Self.capturePipeBytes else {
            throw TestError.failed("cannot enlarge the capture FIFO \(fifoPath) to 1 MiB: errno \(errno)")
        }
    }

    /// Bytes captured so far.
    public var capturedByteCount: Int {
        ((try? FileManager.default.attributesOfItem(atPath: capturePath)[.size]) as? Int) ?? 0
    }

    /// Runs `pactl` against this server.
    @discardableResult
    public func pactl(_ arguments: [String]) throws -> ProcessResult {
        try Shell.run(["pactl"] + arguments, environment: ["PULSE_SERVER": serverAddress], timeout: 10)
    }

    /// `pactl`, throwing with the log's tail when it fails.
    func checkedPactl(_ arguments: [String]) throws {
        let r = try pactl(arguments)
        guard r.status == 0 else {
            throw TestError.failed("pactl \(arguments.joined(separator: " ")) failed: \(r.stderr) \(logTail(15))")
        }
    }

    /// Plays `seconds` of a 440 Hz tone as a stream with `media.role` `role` (a call: what
    /// module-role-cork reacts to, and what Motet watches for) into the capture sink, and returns
    /// when it has finished.
    public func playPhoneStream(seconds: Double, role: String = "phone") throws {
        let wav = directory + "/phone-\(seconds).wav"
        if !FileManager.default.fileExists(atPath: wav) {
            try Fixtures.wav(wav, seconds: seconds, rate: rate, channels: channels, synth: ["sine", "440"])
        }
        let r = try Shell.run(
            ["paplay", "-d", PulseRig.sinkName, "--property=media.role=\(role)", wav],
            environment: ["PULSE_SERVER": serverAddress], timeout: seconds + 20)
        guard r.status == 0 else { throw TestError.failed("paplay (\(role) role) failed: \(r.stderr)") }
    }
}
