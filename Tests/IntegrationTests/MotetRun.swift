import Foundation
import MotetTestSupport

/// Runs the real `motet` binary with a private HOME/XDG tree, so no test sees another's state.
struct MotetRun {
    let home: String

    init(_ label: String = "motet-it") throws {
        home = try Paths.temporaryDirectory(label)
    }

    var environment: [String: String] {
        [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
            "XDG_CACHE_HOME": home + "/cache", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run",
            "PULSE_SERVER": "unix:/nonexistent", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
        ]
    }

    @discardableResult
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:], timeout: Double = 120) throws
        -> ProcessResult
    {
        var env = environment
        for (k, v) in extraEnvironment { env[k] = v }
        return try Shell.run([Paths.motet] + arguments, environment: env, timeout: timeout)
    }

    func path(_ name: String) -> String { home + "/" + name }
}

/// The format and PCM payload of a WAV file written by Motet (16-bit: the `data` chunk's bytes),
/// read with `StrictWAV`: the header's sizes must match the file.
func wavData(_ path: String) throws -> (channels: Int, rate: Int, bits: Int, data: [UInt8]) {
    let wav = try StrictWAV(path)
    return (wav.channels, wav.rate, wav.bits, [UInt8](try wav.data(path)))
}
