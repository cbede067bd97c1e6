import Foundation

/// ALSA without a sound card, with nothing but ALSA's own plugins: a configuration whose `default`
/// (and `motetcap`) PCM is a `file` PCM over `null`, writing raw interleaved samples to a capture
/// file (not in real time; ALSA pads the end to a whole period).
///
/// For a child process, pass `environment` (ALSA_CONFIG_PATH points at the rig's configuration,
/// which replaces the system's). In-process code can open `inlineDevice`, which needs no
/// configuration change. `stop()` (or deinit) removes the directory.
public final class ALSARig: @unchecked Sendable {
    /// The name of the capture PCM in the rig's configuration (also its `default`).
    public static let deviceName = "motetcap"
    /// The rig's own temporary directory.
    public let directory: String

    /// The configuration file (for ALSA_CONFIG_PATH).
    public var configPath: String { directory + "/asound.conf" }
    /// Where the file PCM writes.
    public var capturePath: String { directory + "/capture.raw" }
    /// What a child process needs so that ALSA's `default` (and `motetcap`) write to the capture.
    public var environment: [String: String] { ["ALSA_CONFIG_PATH": configPath] }
    /// A device string for the same capture that works with the system configuration.
    public var inlineDevice: String { "file:FILE=\(capturePath),FORMAT=raw" }

    /// Writes the configuration.
    public init() throws {
        directory = try Paths.temporaryDirectory("motet-alsa")
        let config = """
            pcm.null { type null }
            pcm.\(Self.deviceName) { type file slave.pcm "null" file "\(capturePath)" format "raw" }
            pcm.!default "\(Self.deviceName)"

            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    /// Everything captured so far.
    public func capturedBytes() -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: capturePath)))) ?? []
    }

    /// Removes the directory.
    public func stop() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
