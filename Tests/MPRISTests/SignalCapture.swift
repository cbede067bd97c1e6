import Foundation
import MotetTestSupport

/// A `dbus-monitor` capture of the signals on Motet's MPRIS object path.
final class SignalCapture: @unchecked Sendable {
    let path: String
    let process: Process

    init(bus: DBusRig, directory: String) throws {
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
