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
    convenience init(
        bus: DBusRig?, files: [String], arguments: [String] = [], label: String = "motet-mpris"
    ) throws {
        try self.init(busAddress: bus?.address, files: files, arguments: arguments, label: label)
    }

    /// The same with any session bus address (nil: none at all).
    init(busAddress: String?, files: [String], arguments: [String] = [], label: String = "motet-mpris") throws {
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
        if let busAddress { env["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        environment = env
        // `env -u` runs motet without a session bus address (Shell.start goes through /usr/bin/env).
        let unset = busAddress == nil ? ["-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "DISPLAY"] : []
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
