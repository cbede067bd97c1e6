import Foundation
import MotetTestSupport

/// Clients of the private bus: playerctl and busctl, as a user would run them.
struct BusClient {
    let bus: DBusRig

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
