import Foundation

/// An Xvfb X server for the notification servers the tests run (dunst, xfce4-notifyd). It picks a
/// free display itself (`-displayfd`); `stop()` ends it by PID.
public final class XvfbDisplay: @unchecked Sendable {
    /// The display, e.g. `:93`.
    public let display: String
    private let process: SpawnedProcess

    /// Starts Xvfb, writing its display number and log into `directory`, and waits for its socket.
    public init(directory: String) throws {
        let displayFile = directory + "/display"
        process = try SpawnedProcess(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
            stdout: displayFile, stderr: directory + "/xvfb.log")
        var number = ""
        _ = try Shell.waitUntil(timeout: 20) {
            number = ((try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return !number.isEmpty && FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
        }
        guard !number.isEmpty else {
            process.stop()
            let log = (try? String(contentsOfFile: directory + "/xvfb.log", encoding: .utf8)) ?? ""
            throw TestError.failed("Xvfb did not report a display: \(log)")
        }
        display = ":" + number
    }

    deinit { stop() }

    /// Stops Xvfb by PID. Safe to call twice.
    public func stop() { process.stop() }
}
