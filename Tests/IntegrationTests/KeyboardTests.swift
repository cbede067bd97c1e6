import Foundation
import MotetTestSupport
import Testing

/// A real terminal (tmux) running motet: the status line, the keys, and feedback remembered.
@Suite struct KeyboardTests {
    func tracks(_ run: MotetRun, _ titles: [String], seconds: Double = 8) throws -> [String] {
        try titles.enumerated().map { i, title in
            let f = run.path("\(i)-\(title).ogg")
            try Fixtures.oggVorbis(f, seconds: seconds, tags: .init(title: title, artists: ["Band"], album: "Record"), serial: i + 1)
            return f
        }
    }

    @Test func theStatusLineShowsTheTrackAndLikeIsRememberedAcrossRunsAndRenames() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["First", "Second"])
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("First — Band — Record"), "\(term.screen())")
        try term.press("l")
        #expect(try term.waitFor("♥ liked"), "\(term.screen())")
        try term.press("n")
        #expect(try term.waitFor("Second — Band — Record"), "\(term.screen())")
        try term.press("q")
        #expect(try Shell.waitUntil(timeout: 10) { !term.isRunning })

        let renamed = run.path("renamed.ogg")
        try FileManager.default.moveItem(atPath: files[0], toPath: renamed)
        let again = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", renamed])
        #expect(again.stdout.contains("Playing: First — Band — Record [liked]"), "\(again.stdout)\(again.stderr)")
    }

    @Test func dislikingSkipsTheTrack() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["Bad", "Good"])
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Bad — Band"), "\(term.screen())")
        try term.press("d")
        #expect(try term.waitFor("Good — Band"), "\(term.screen())")
        try term.press("q")
        _ = try Shell.waitUntil(timeout: 10) { !term.isRunning }
        // Remembered: the next run passes it over (--skip-disliked yes, the default) with one line,
        // and plays it marked disliked with --skip-disliked no.
        let skipped = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", files[0], files[1]])
        #expect(skipped.stderr.contains("skipping 'Bad': disliked earlier"), "\(skipped.stderr)")
        #expect(!skipped.stdout.contains("Playing: Bad"), "\(skipped.stdout)")
        #expect(skipped.stdout.contains("Playing: Good"), "\(skipped.stdout)")
        let again = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", "--skip-disliked", "no", files[0]])
        #expect(again.stdout.contains("[disliked]"), "\(again.stdout)")
    }

    @Test func theSkipLimitRefusesASkipAndSaysSo() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["One", "Two", "Three"])
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", "--skip-limit", "1/60"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("One — Band"), "\(term.screen())")
        try term.press("n")
        #expect(try term.waitFor("Two — Band"), "\(term.screen())")
        #expect(try term.waitFor("skips left: 0"), "\(term.screen())")
        try term.press("n")
        #expect(try term.waitFor("skip refused"), "\(term.screen())")
        #expect(!term.screen().contains("Three — Band"))
        try term.press("q")
    }

    @Test func nextPressedTwiceSkipsTwoTracks() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["One", "Two", "Three", "Four"])
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("One — Band"), "\(term.screen())")
        // Both keys in one write: the second arrives before "Two" is heard.
        try term.press("nn")
        #expect(try term.waitFor("Three — Band", timeout: 5), "\(term.screen())")
        // The second press counts from "Two" (which may have been shown for an instant: a track
        // skipped to is current as soon as it is open), and nobody complains.
        #expect(!term.screen().contains("no next track"), "\(term.screen())")
        try term.press("q")
        _ = try Shell.waitUntil(timeout: 10) { !term.isRunning }
    }

    @Test func volumeKeysPressedTogetherAllCount() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["Loud"])
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", "--volume", "20"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Loud — Band"), "\(term.screen())")
        // Ten presses in one write reach the player faster than it applies them.
        try term.press(String(repeating: "+", count: 10))
        #expect(try term.waitFor("vol 70%"), "\(term.screen())")
        for _ in 0..<5 { try term.press("-") }  // tmux takes "-----" for a flag
        #expect(try term.waitFor("vol 45%"), "\(term.screen())")
        try term.press("q")
        _ = try Shell.waitUntil(timeout: 10) { !term.isRunning }
    }

    @Test func nextWhilePausedShowsTheNextTrackPaused() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["One", "Two"])
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("One — Band"), "\(term.screen())")
        try term.press(" ")
        #expect(try Shell.waitUntil { term.statusLine().hasPrefix("⏸") && term.statusLine().contains("One — Band") }, "\(term.screen())")
        try term.press("n")
        #expect(try Shell.waitUntil { term.statusLine().hasPrefix("⏸") && term.statusLine().contains("Two — Band") }, "\(term.screen())")
        try term.press("q")
        _ = try Shell.waitUntil(timeout: 10) { !term.isRunning }
    }

    @Test func seekingMovesTheElapsedTime() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["Long"], seconds: 30)
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Long — Band"), "\(term.screen())")
        for _ in 0..<4 { try term.press("\u{1b}[C") }  // → four times: +20 s
        #expect(try term.waitFor("0:2"), "\(term.screen())")
        try term.press(" ")
        #expect(try term.waitFor("⏸"), "\(term.screen())")
        try term.press("q")
    }
}
