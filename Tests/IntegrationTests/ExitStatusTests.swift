import Foundation
import MotetTestSupport
import Testing

/// The exit statuses (sysexits.h) a script or systemd can tell apart, with the real binary: 66
/// nothing could be played, 69 a stream given up on (the trickle in `NetworkFaultTests`: one that
/// played), 74 the output failed (`FaultTests`); and the shipped systemd unit, which must not
/// restart forever when there is nothing to play.
@Suite struct ExitStatusTests {
    @Test func filesThatCannotBeOpenedExitNoInputAndOneThatPlaysMakesItZero() throws {
        let run = try MotetRun()
        let junk = run.path("junk.ogg"), good = run.path("good.ogg")
        try Data(repeating: 0x5a, count: 2048).write(to: URL(fileURLWithPath: junk))
        try Fixtures.oggVorbis(good, seconds: 0.2)
        let alone = try run.run(["--output", "null", "--untimed", "--no-config", junk])
        #expect(alone.status == 66, "EX_NOINPUT: \(alone.stderr)")
        #expect(alone.stderr.split(separator: "\n").count == 1, "\(alone.stderr)")
        let mixed = try run.run(["--output", "null", "--untimed", "--no-config", junk, good])
        #expect(mixed.status == 0, "something played: \(mixed.stderr)")
    }

    @Test func anAddressThatCannotBeReachedExitsUnavailable() throws {
        let run = try MotetRun()
        let refused = "http://127.0.0.1:1/radio.ogg"
        let r = try run.run(["--output", "null", "--no-config", refused], timeout: 60)
        #expect(r.status == 69, "EX_UNAVAILABLE: \(r.stderr)")
        #expect(r.stderr.contains("motet: \(refused): cannot connect (connection refused)"), "\(r.stderr)")
    }

    // MARK: The systemd unit

    /// Examples/systemd/motet-station.service, with its ExecStart pointed at the binary under test.
    private func unit(in dir: String) throws -> (path: String, text: String) {
        let shipped = try String(contentsOfFile: Paths.packageRoot + "/Examples/systemd/motet-station.service", encoding: .utf8)
        #expect(shipped.contains("ExecStart=/usr/bin/motet "), "\(shipped)")
        let text = shipped.replacingOccurrences(of: "ExecStart=/usr/bin/motet ", with: "ExecStart=\(Paths.motet) ")
        let path = dir + "/motet-station.service"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, text)
    }

    private func value(of key: String, in unit: String) -> String? {
        unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func theSystemdUnitVerifiesAndDoesNotRestartWhenMusicIsEmptyOrMissing() throws {
        let run = try MotetRun()
        let (path, text) = try unit(in: run.home)
        let runtime = run.path("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // --man=no: motet(1) is installed by `make install`, not on a build machine.
        let verify = try Shell.run(
            ["systemd-analyze", "--user", "verify", "--man=no", path], environment: ["XDG_RUNTIME_DIR": runtime, "HOME": run.home])
        #expect(verify.status == 0 && verify.stderr.isEmpty && verify.stdout.isEmpty, "\(verify)")

        let prevented = Set((value(of: "RestartPreventExitStatus", in: text) ?? "").split(separator: " ").compactMap { Int32($0) })
        #expect(prevented == [64, 66], "\(text)")
        #expect(value(of: "Restart", in: text) == "on-failure")
        // Its ExecStart, as systemd runs it for a user whose ~/Music is empty, then missing (%h is HOME).
        let exec = try #require(value(of: "ExecStart", in: text))
        let music = run.home + "/Music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        for label in ["empty", "missing"] {
            if label == "missing" { try FileManager.default.removeItem(atPath: music) }
            let argv = exec.split(separator: " ").map { $0.replacingOccurrences(of: "%h", with: run.home) }
            let r = try Shell.run(argv, environment: run.environment, timeout: 60)
            #expect(prevented.contains(r.status), "\(label) ~/Music: exit \(r.status) must not restart the unit: \(r.stderr)")
            #expect(r.status == 66, "\(label): \(r.stderr)")
            #expect(r.stderr.contains("nothing to play"), "\(label): \(r.stderr)")
        }
    }
}
