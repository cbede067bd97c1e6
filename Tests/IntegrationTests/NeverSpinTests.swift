import Foundation
import Glibc
import MotetTestSupport
import Testing

/// `--loop` over what cannot be played, with the real binary: one pass, one line, exit 66 — not
/// 100 % CPU and tens of thousands of identical lines a second.
@Suite struct NeverSpinTests {
    /// A file named .ogg that is no Ogg at all, and an Ogg Opus file (Motet plays Vorbis only).
    private func unplayable(_ run: MotetRun) throws -> (junk: String, opus: String) {
        let junk = run.path("junk.ogg"), opus = run.path("opus.ogg")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: junk))
        try Fixtures.foreignOgg(opus, payload: Fixtures.opusHead)
        return (junk, opus)
    }

    @Test func aLoopOverOneJunkFileStopsAtOnceWithOneLineAndExitsNoInput() throws {
        let run = try MotetRun()
        let (junk, _) = try unplayable(run)
        let started = Date()
        let r = try runBounded(run, ["--loop", "--output", "null", "--no-config", junk], timeout: 20)
        let seconds = Date().timeIntervalSince(started)
        #expect(r.ended, "motet stops by itself (no busy loop): \(r.stderr.prefix(300))")
        #expect(seconds < 10, "promptly: \(seconds) s")
        #expect(r.status == 66, "EX_NOINPUT: \(String(describing: r.status))")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines.prefix(5))")
        #expect(lines.first?.hasPrefix("motet: ") == true && lines.first?.contains(junk) == true, "\(lines.prefix(5))")
        #expect(lines.last == "motet: nothing left to play: the only track cannot be played, so --loop stops here", "\(lines.prefix(5))")
    }

    @Test func aLoopOverJunkAndOpusSaysEachOnceThenStops() throws {
        let run = try MotetRun()
        let (junk, opus) = try unplayable(run)
        let r = try runBounded(run, ["--loop", "--output", "null", "--no-config", "--status", "events", junk, opus], timeout: 20)
        #expect(r.ended, "\(r.stderr.prefix(300))")
        #expect(r.status == 66)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines.prefix(5))")
        #expect(lines.filter { $0.contains(junk) }.count == 1, "\(lines.prefix(5))")
        #expect(lines.filter { $0.contains(opus) && $0.contains("Opus") }.count == 1, "\(lines.prefix(5))")
        #expect(lines.last == "motet: nothing left to play: none of the 2 tracks can be played, so --loop stops here")
        #expect(!r.stdout.contains("Playing:"), "\(r.stdout)")
    }
}
