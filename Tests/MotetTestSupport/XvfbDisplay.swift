import Foundation

/// An Xvfb X server for the notification servers the tests run (dunst, xfce4-notifyd). It picks a
/// free display itself (`-displayfd`); `stop()` ends it by PID.
public final class XvfbDisplay: @unchecked Sendable {
    /// The display, e.g. `:93`.
    public let display: String
    private let process: SpawnedProcess

    /// Starts Xvfb, writing its display number and log into `directory`, and waits until an X
    /// client (`xdpyinfo`) connects to it: a socket file in /tmp/.X11-unix may be a dead server's.
    public init(directory: String) throws {
        let displayFile = directory + "/display"
        let process = try SpawnedProcess(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
            stdout: displayFile, stderr: directory + "/xvfb.log")
        self.process = process
        let log = { (try? String(contentsOfFile: directory + "/xvfb.log", encoding: .utf8)) ?? "" }
        var number = ""
        do {
            // -displayfd: the number, then a newline, once it has chosen a free display.
            try Readiness.wait(for: "Xvfb", answering: "its display number", timeout: 20, process: process, detail: log) {
                let text = (try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? ""
                number = text.hasSuffix("\n") ? text.trimmingCharacters(in: .whitespacesAndNewlines) : ""
                return !number.isEmpty
            }
            try Readiness.wait(
                for: "Xvfb", answering: "an X connection (xdpyinfo) to :\(number)", timeout: 20, process: process,
                detail: log
            ) { (try? Shell.run(["xdpyinfo", "-display", ":" + number], timeout: 10))?.status == 0 }
        } catch {
            process.stop()
            throw error
        }
        display = ":" + number
    }

    deinit { stop() }

    /// Stops Xvfb by PID. Safe to call twice.
    public func stop() { process.stop() }
}
