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

/// The PCM payload of a WAV file written by Motet (16-bit: the `data` chunk's bytes).
func wavData(_ path: String) throws -> (channels: Int, rate: Int, bits: Int, data: [UInt8]) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
    func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
    guard bytes.count >= 44, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
        throw TestError.failed("\(path) is not a RIFF/WAVE file")
    }
    var offset = 12
    var channels = 0, rate = 0, bits = 0
    while offset + 8 <= bytes.count {
        let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        let size = u32(offset + 4)
        if id == "fmt " {
            channels = u16(offset + 10)
            rate = u32(offset + 12)
            bits = u16(offset + 22)
        } else if id == "data" {
            guard offset + 8 + size <= bytes.count else {
                throw TestError.failed("\(path): data chunk says \(size) bytes, file has \(bytes.count - offset - 8)")
            }
            return (channels, rate, bits, Array(bytes[offset + 8..<offset + 8 + size]))
        }
        offset += 8 + size + (size & 1)
    }
    throw TestError.failed("\(path) has no data chunk")
}
