import Foundation
import MotetTestSupport
import Testing

/// The exit statuses (sysexits.h) a script or systemd can tell apart, with the real binary: 66
/// nothing could be played, 69 a stream given up on (the trickle in `NetworkFaultTests`: one that
/// played), 74 the output failed (`FaultTests`).
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
}
