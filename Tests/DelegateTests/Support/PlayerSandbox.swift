import Foundation
import MotetTestSupport

/// A private HOME/XDG tree for one run of the real `motet` binary with the bundled delegates,
/// so no test sees another's state (feedback store, config, runtime dir).
struct PlayerSandbox {
    let home: String

    init(_ label: String = "motet-delegates") throws {
        home = try Paths.temporaryDirectory(label)
        try FileManager.default.createDirectory(atPath: home + "/run", withIntermediateDirectories: true)
        chmod(home + "/run", 0o700)
    }

    /// No sound server, no session bus, unless a test adds them.
    var environment: [String: String] {
        [
            "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
            "XDG_CACHE_HOME": home + "/cache", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run",
            "PULSE_SERVER": "unix:/nonexistent", "DBUS_SESSION_BUS_ADDRESS": "",
        ]
    }

    func path(_ name: String) -> String { home + "/" + name }

    /// The motet command line: no config, plugins from the build directory.
    func motet(_ arguments: [String]) -> [String] {
        [Paths.motet, "--no-config", "--plugin-dir", Paths.buildDirectory] + arguments
    }

    /// Runs motet to completion.
    @discardableResult
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:], timeout: Double = 120) throws
        -> ProcessResult
    {
        try Shell.run(motet(arguments), environment: environment.merging(extraEnvironment) { $1 }, timeout: timeout)
    }

    /// Short tagged tracks `0-TITLE.ogg`, ….
    func tracks(
        _ titles: [String], seconds: Double = 8, artists: [String] = ["Band"], album: String = "Record",
        extra: [String] = []
    ) throws -> [String] {
        try titles.enumerated().map { i, title in
            let f = path("\(i).ogg")
            try Fixtures.oggVorbis(
                f, seconds: seconds, tags: .init(title: title, artists: artists, album: album, extra: extra), serial: i + 1)
            return f
        }
    }

    /// `damaged.ogg`: 6 s whose middle 3,000 bytes are garbage, so the player reports a decode
    /// error there and plays on.
    func damagedTrack(title: String) throws -> String {
        let good = path("good.ogg")
        try Fixtures.oggVorbis(good, seconds: 6, tags: .init(title: title))
        let damaged = path("damaged.ogg")
        let size = (try FileManager.default.attributesOfItem(atPath: good)[.size] as? Int) ?? 0
        try Fixtures.damagedCopy(of: good, to: damaged, offset: size / 2, count: 3000)
        return damaged
    }
}
