import Foundation
import MotetTestSupport
import Testing

/// Keys in a real terminal (tmux) around disliked tracks and feedback: previous over a disliked
/// track, feedback labels that stay with the track they were given to, and the toggles.
extension KeyboardTests {
    /// The row the status line is on.
    func statusRow(_ term: PlayerTerminal) -> String { term.statusLine() }

    @Test func previousGoesBackOverADislikedTrack() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["First", "Bad", "Last"])
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("First — Band"), "\(term.screen())")
        try term.press("n")
        #expect(try Shell.waitUntil { statusRow(term).contains("Bad — Band") }, "\(term.screen())")
        try term.press("d")  // disliked: moves on to Last
        #expect(try Shell.waitUntil { statusRow(term).contains("Last — Band") }, "\(term.screen())")
        try term.press("p")
        #expect(try Shell.waitUntil { statusRow(term).contains("First — Band") }, "\(term.screen())")
        #expect(try term.quit())
    }
}

extension KeyboardTests {
    @Test func aRatingNoticeStaysWithTheTrackItWasGivenTo() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["Bad", "Good", "Third"])
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try Shell.waitUntil { statusRow(term).contains("Bad — Band") }, "\(term.screen())")
        try term.press("d")
        #expect(try Shell.waitUntil { statusRow(term).contains("Good — Band") }, "\(term.screen())")
        #expect(!statusRow(term).contains("disliked"), "the next track's line says disliked: \(statusRow(term))")
        try term.press("l")
        #expect(try Shell.waitUntil { statusRow(term).contains("♥ liked") }, "\(term.screen())")
        try term.press("u")
        #expect(try Shell.waitUntil { statusRow(term).contains("rating cleared") }, "\(term.screen())")
        try term.press("n")
        #expect(try Shell.waitUntil { statusRow(term).contains("Third — Band") }, "\(term.screen())")
        #expect(!statusRow(term).contains("rating cleared"), "the next track's line says rating cleared: \(statusRow(term))")
        #expect(try term.quit())
    }
}

extension KeyboardTests {
    @Test func upAndDownSeekAMinuteAndSRAndMAreShownOnTheStatusLine() throws {
        let run = try MotetRun()
        let files = try tracks(run, ["Long"], seconds: 150)
        let term = try PlayerTerminal(command: [Paths.motet, "--output", "null", "--no-config"] + files, environment: run.environment)
        defer { term.close() }
        #expect(try Shell.waitUntil { statusRow(term).contains("Long — Band") }, "\(term.screen())")
        #expect(statusRow(term).contains("last track"), "\(statusRow(term))")
        try term.press("\u{1b}[A")  // ↑: a minute on
        #expect(try Shell.waitUntil { statusRow(term).hasPrefix("▶ 1:0") }, "\(term.screen())")
        try term.press("\u{1b}[B")  // ↓: a minute back
        #expect(try Shell.waitUntil { statusRow(term).hasPrefix("▶ 0:0") }, "\(term.screen())")
        try term.press("s")
        #expect(try Shell.waitUntil { statusRow(term).contains("  shuffle") }, "\(term.screen())")
        try term.press("r")
        #expect(try Shell.waitUntil { statusRow(term).contains("  loop") }, "\(term.screen())")
        // Looping, the track has one after it.
        #expect(!statusRow(term).contains("last track"), "\(statusRow(term))")
        try term.press("m")
        #expect(try Shell.waitUntil { statusRow(term).contains("  muted") }, "\(term.screen())")
        try term.press("m")
        #expect(try Shell.waitUntil { !statusRow(term).contains("muted") }, "\(term.screen())")
        try term.press("h")
        #expect(try term.waitFor("↓ ↑ seek 60 s"), "\(term.screen())")
        #expect(term.screen().contains("m mute") && term.screen().contains("s shuffle") && term.screen().contains("r loop"), "\(term.screen())")
        #expect(try term.quit())
    }
}
