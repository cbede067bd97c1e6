import Foundation
import MotetTestSupport

/// The real `motet` binary playing with the `mpris` delegate on a private session bus, and the
/// `json` delegate writing its state file (what the player really did, independent of MPRIS).
final class MotetOnBus: @unchecked Sendable {
    let directory: String
    let process: Process
    let stateFile: String
    let stdoutPath: String
    let stderrPath: String
    let environment: [String: String]

    /// Starts `motet --output null` (real-time pacing) on `files` with the mpris and json delegates.
    /// `bus` nil: no session bus at all (the variable unset, no autolaunch possible).
    init(
        bus: MPRISBusRig?, files: [String], arguments: [String] = [], label: String = "motet-mpris"
    ) throws {
        directory = try Paths.temporaryDirectory(label)
        stateFile = directory + "/state.json"
        stdoutPath = directory + "/stdout.txt"
        stderrPath = directory + "/stderr.txt"
        for sub in ["config", "state", "cache", "data", "run"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        var env = [
            "HOME": directory, "XDG_CONFIG_HOME": directory + "/config", "XDG_STATE_HOME": directory + "/state",
            "XDG_CACHE_HOME": directory + "/cache", "XDG_DATA_HOME": directory + "/data",
            "XDG_RUNTIME_DIR": directory + "/run", "PULSE_SERVER": "unix:/nonexistent",
        ]
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        environment = env
        // `env -u` runs motet without a session bus address (Shell.start goes through /usr/bin/env).
        let unset = bus == nil ? ["-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "DISPLAY"] : []
        let argv =
            unset + [
                Paths.motet, "--no-config", "--output", "null", "--status", "events",
                "--plugin", Paths.plugin("mpris"), "--plugin", "json:path=\(stateFile),interval=0.2",
            ] + arguments + files
        process = try Shell.start(argv, environment: env, stdout: stdoutPath, stderr: stderrPath)
    }

    deinit { _ = stop() }

    var pid: Int32 { process.processIdentifier }

    /// The json delegate's state file, parsed; nil while it does not exist (or is being replaced).
    func state() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: stateFile),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object
    }

    /// Waits until the state file satisfies `condition`.
    func waitForState(timeout: Double = 10, _ condition: @escaping ([String: Any]) -> Bool) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { self.state().map(condition) ?? false }) ?? false
    }

    /// What motet wrote on stderr (messages, plugin log lines) so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Waits for motet to exit by itself; its exit status, or nil after `timeout`.
    func waitForExit(timeout: Double) -> Int32? {
        let finished = (try? Shell.waitUntil(timeout: timeout) { !self.process.isRunning }) ?? false
        return finished ? process.terminationStatus : nil
    }

    /// SIGTERM by PID, then SIGKILL if it has not exited within 10 s. Returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        if let status = waitForExit(timeout: 10) { return status }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A `dbus-monitor` capture of the signals on Motet's MPRIS object path.
final class SignalCapture: @unchecked Sendable {
    let path: String
    let process: Process

    init(bus: MPRISBusRig, directory: String) throws {
        path = directory + "/signals.txt"
        process = try Shell.start(
            ["dbus-monitor", "--session", "type='signal',path='/org/mpris/MediaPlayer2'"],
            environment: bus.environment, stdout: path)
        // dbus-monitor prints its own NameAcquired once it is listening.
        _ = try Shell.waitUntil(timeout: 10) { self.text.contains("NameAcquired") }
    }

    deinit { stop() }

    var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The captured signals, one string per message (header line and its body).
    var messages: [String] {
        var result: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("signal ") || line.hasPrefix("method ") || line.hasPrefix("error ")
                || line.hasPrefix("method return")
            {
                result.append(String(line))
            } else if !result.isEmpty {
                result[result.count - 1] += "\n" + line
            }
        }
        return result
    }

    /// SIGKILL: a blocked SIGTERM may have been handed down to it; it flushes after every message.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Clients of the private bus: playerctl and busctl, as a user would run them.
struct BusClient {
    let bus: MPRISBusRig

    @discardableResult
    func playerctl(_ arguments: [String], player: String = "motet") throws -> ProcessResult {
        try Shell.run(["playerctl", "-p", player] + arguments, environment: bus.environment, timeout: 20)
    }

    /// `playerctl ... ` output without the trailing newline; "" on failure.
    func playerctlValue(_ arguments: [String], player: String = "motet") -> String {
        guard let r = try? playerctl(arguments, player: player), r.status == 0 else { return "" }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    func busctl(_ arguments: [String]) throws -> ProcessResult {
        try Shell.run(["busctl", "--user"] + arguments, environment: bus.environment, timeout: 20)
    }

    /// A property of Motet's MPRIS object as busctl's JSON: `{"type": ..., "data": ...}`.
    func property(_ interface: String, _ name: String, busName: String = "org.mpris.MediaPlayer2.motet") throws
        -> [String: Any]
    {
        let r = try busctl(["--json=short", "get-property", busName, "/org/mpris/MediaPlayer2", interface, name])
        guard r.status == 0, let data = r.stdout.data(using: .utf8),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw TestError.failed("busctl get-property \(interface) \(name) failed: \(r.stderr)") }
        return object
    }

    /// Calls a method on Motet's MPRIS object.
    @discardableResult
    func call(_ interface: String, _ method: String, _ signatureAndArguments: [String] = []) throws -> ProcessResult {
        try busctl(
            ["call", "org.mpris.MediaPlayer2.motet", "/org/mpris/MediaPlayer2", interface, method] + signatureAndArguments)
    }
}

/// Ogg Vorbis fixtures with the tags the tests look for.
enum MPRISFixtures {
    /// A 1×1 PNG, the artwork the tests expect MPRIS to point at.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// `count` tracks "Track 1"…, by "Ada Artist" and "Bo Second", on "Motet Album", each
    /// `seconds` long, in `directory`. Track 1 has embedded PNG artwork when `artwork`.
    static func tracks(_ count: Int, seconds: Double, in directory: String, artwork: Bool = false) throws -> [String] {
        var paths: [String] = []
        for i in 1...count {
            let path = directory + "/\(i) Track é \(i).ogg"
            try Fixtures.oggVorbis(
                path, seconds: seconds, synth: ["sine", "\(300 + 100 * i)"],
                // oggenc takes one -a per input file: both ARTISTs go in as raw comments, in order.
                tags: Fixtures.Tags(
                    title: "Track \(i)", album: "Motet Album", extra: ["ARTIST=Ada Artist", "ARTIST=Bo Second"]),
                serial: 1000 + i)
            if artwork && i == 1 {
                let block = Fixtures.pictureBlock(mime: "image/png", data: png)
                try Fixtures.addComments(path, ["METADATA_BLOCK_PICTURE=" + Data(block).base64EncodedString()])
            }
            paths.append(path)
        }
        return paths
    }
}
