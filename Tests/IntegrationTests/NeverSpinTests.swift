import Foundation
import Glibc
import MotetTestSupport
import Testing

/// `--loop` over what cannot be played, with the real binary: one pass, one line, exit 66 — not
/// 100 % CPU and tens of thousands of identical lines a second; and a message that repeats on each
/// pass is said once, then summed up at most once per 10 s and at exit.
@Suite struct NeverSpinTests {
    /// A file named .ogg that is no Ogg at all, and an Ogg Opus file with only its first header.
    private func unplayable(_ run: MotetRun) throws -> (junk: String, opus: String) {
        let junk = run.path("junk.ogg"), opus = run.path("opus.ogg")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: junk))
        try Fixtures.foreignOgg(opus, payload: Fixtures.opusHead)
        return (junk, opus)
    }

    @Test func aLoopOverOneJunkFileStopsAtOnceWithOneLineAndExitsNoInput() throws {
        let run = try MotetRun()
        let (junk, _) = try unplayable(run)
        let started = Stopwatch()
        let r = try runBounded(run, ["--loop", "--output", "null", "--no-config", junk], timeout: 20)
        let seconds = started.seconds
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

    /// An Opus file cut off before its first audio page, alone with --loop: one line, then it stops.
    @Test func aLoopOverOnlyACutOffOpusFileStops() throws {
        let run = try MotetRun()
        let whole = run.path("whole.opus"), cut = run.path("cut.opus")
        try Fixtures.opus(whole, seconds: 2, synth: ["pinknoise"])
        let size = try FileManager.default.attributesOfItem(atPath: whole)[.size] as? Int ?? 0
        try Fixtures.truncatedCopy(of: whole, to: cut, bytes: size / 3)
        let r = try runBounded(run, ["--loop", "--output", "null", "--no-config", "--status", "events", cut], timeout: 20)
        #expect(r.ended, "\(r.stderr.prefix(300))")
        #expect(r.status == 66)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines.prefix(5))")
        #expect(lines.first == "motet: \(cut): the file ends early (its last page is cut off or damaged) — it may be an incomplete copy or download; copy or download it again", "\(lines.prefix(5))")
        #expect(lines.last == "motet: nothing left to play: the only track cannot be played, so --loop stops here", "\(lines.prefix(5))")
    }

    @Test func aLoopWithOnePlayableTrackPlaysOnAndSumsUpTheJunksRepeats() throws {
        let run = try MotetRun()
        let (junk, _) = try unplayable(run)
        let good = run.path("good.ogg")
        try Fixtures.oggVorbis(good, seconds: 0.25, tags: .init(title: "Good"))
        let dir = try Paths.temporaryDirectory("motet-spin")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let motet = try SpawnedProcess(
            [Paths.motet, "--loop", "--output", "null", "--no-config", "--status", "events", good, junk],
            environment: run.environment, stdout: dir + "/stdout", stderr: dir + "/stderr")
        defer { motet.stop() }
        // Past one 10 s window: the junk fails on every pass, four times a second.
        Thread.sleep(forTimeInterval: 12.5)
        #expect(motet.isRunning, "the loop goes on: something plays")
        motet.signal(SIGTERM)
        #expect(motet.wait(timeout: 30))
        #expect(motet.exitCode == 0, "a quit, and something played")
        let stdout = (try? String(contentsOfFile: dir + "/stdout", encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: dir + "/stderr", encoding: .utf8)) ?? ""
        let passes = stdout.split(separator: "\n").filter { $0.hasPrefix("Finished: Good (ok, completed)") }.count
        #expect(passes >= 20, "the good track plays on each pass: \(passes)")
        let lines = stderr.split(separator: "\n").map(String.init)
        let said = lines.filter { $0.contains(junk) }
        #expect(said.first?.hasPrefix("motet: ") == true && said.first?.contains("repeated") == false, "\(lines)")
        let repeats = said.filter { $0.hasPrefix("motet: repeated ") }
        // One line after 10 s and one at exit; the counts add up to the passes after the first (the
        // decoder runs up to 3 s ahead of what is heard: a dozen passes of this track).
        #expect(said.count == 3 && repeats.count == 2, "\(lines)")
        let counted = repeats.compactMap { line in
            line.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }
        }.reduce(0, +)
        #expect(counted >= passes - 2 && counted <= passes + 20, "\(counted) repeats for \(passes) passes: \(repeats)")
        #expect(repeats.first?.contains(" times in the last 10 s: ") == true, "\(repeats)")
        #expect(lines.count == 3, "nothing else: \(lines)")
    }
}
