import Foundation
import MotetTestSupport
import Testing

/// Motet as a job of an interactive shell: Ctrl-Z, `fg`, `bg`, `CMD &`.
@Suite struct JobControlTests {
    func shellWithTracks(_ run: MotetRun) throws -> (PlayerTerminal, String) {
        var files: [String] = []
        for (i, title) in ["First", "Second"].enumerated() {
            let f = run.path("\(i).ogg")
            try Fixtures.oggVorbis(f, seconds: 30, tags: .init(title: title, artists: ["Band"], album: "Record"), serial: i + 1)
            files.append(f)
        }
        let term = try PlayerTerminal(command: ["bash", "--norc", "-i"], environment: run.environment.merging(["PS1": "$ "]) { $1 }, columns: 100, rows: 20)
        #expect(try term.waitFor("$"), "\(term.screen())")
        return (term, ([Paths.motet, "--output", "null", "--no-config"] + files).joined(separator: " "))
    }

    @Test func ctrlZGivesBackLineModeAndFgTakesKeysWithoutEnter() throws {
        let run = try MotetRun()
        let (term, command) = try shellWithTracks(run)
        defer { term.close() }
        try term.type(command)
        #expect(try term.waitFor("First — Band"), "\(term.screen())")
        try term.pressKey("C-z")
        #expect(try term.waitFor("Stopped"), "\(term.screen())")
        try term.type("stty -a | grep -o -- '[-]*icanon'; echo done-stty")
        #expect(try term.waitFor("done-stty\n"), "\(term.screen())")
        #expect(!term.screen().contains("-icanon"), "the shell got the terminal in raw mode\n\(term.screen())")
        try term.type("fg")
        Thread.sleep(forTimeInterval: 0.5)
        try term.press("n")  // no Enter
        #expect(try term.waitFor("Second — Band"), "\(term.screen())")
        try term.press("q")
        #expect(try Shell.waitUntil { term.rows().last == "$" }, "\(term.screen())")
    }

    @Test func aPlayerStartedInTheBackgroundPlaysOnWithoutTouchingTheTerminal() throws {
        let run = try MotetRun()
        let (term, command) = try shellWithTracks(run)
        defer { term.close() }
        try term.type(command + " &")
        Thread.sleep(forTimeInterval: 2.5)
        try term.type("jobs")
        #expect(try term.waitFor("Running"), "\(term.screen())")
        #expect(!term.screen().contains("Stopped"), "\(term.screen())")
        #expect(!term.screen().contains("▶"), "the background player drew on the shell's screen\n\(term.screen())")
        try term.type("fg")
        #expect(try Shell.waitUntil { term.statusLine().hasPrefix("▶ 0:0") }, "\(term.screen())")
        try term.press("n")  // raw mode after fg: no Enter
        #expect(try term.waitFor("Second — Band"), "\(term.screen())")
        try term.press("q")
        #expect(try Shell.waitUntil { term.rows().last == "$" }, "\(term.screen())")
    }
}

extension JobControlTests {
    /// The elapsed seconds the status line shows (on the cursor's row), or nil.
    func shownSeconds(_ term: PlayerTerminal) -> Int? { shownSeconds(term.statusLine()) }

    /// The elapsed seconds a status line `row` shows, or nil.
    func shownSeconds(_ row: String) -> Int? {
        guard row.hasPrefix("▶"), let slash = row.range(of: " / ") else { return nil }
        let time = row[row.index(row.startIndex, offsetBy: 2)..<slash.lowerBound].split(separator: ":").compactMap { Int($0) }
        return time.count == 2 ? time[0] * 60 + time[1] : nil
    }

    @Test func afterCtrlZAndFgTheClockOnPulseAudioGoesOnEvenly() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        let ogg = run.path("long.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 60, tags: .init(title: "Long", artists: ["Band"], album: "Record"))
        let term = try PlayerTerminal(
            command: ["bash", "--norc", "-i"], environment: run.environment.merging(pulse.environment) { $1 }.merging(["PS1": "$ "]) { $1 },
            columns: 100, rows: 20)
        defer { term.close() }
        #expect(try term.waitFor("$"), "\(term.screen())")
        try term.type([Paths.motet, "--output", "pulse", "--no-config", ogg].joined(separator: " "))
        #expect(try Shell.waitUntil(timeout: 15) { (shownSeconds(term) ?? 0) >= 3 }, "\(term.screen())")
        let before = shownSeconds(term) ?? 3
        try term.pressKey("C-z")
        #expect(try term.waitFor("Stopped"), "\(term.screen())")
        // The line as the stop left it: `fg` draws it again at once (SIGCONT), before the player
        // has heard from the server how far it played meanwhile.
        let frozen = term.rows().last { $0.hasPrefix("▶") }.flatMap { shownSeconds($0) }
        Thread.sleep(forTimeInterval: 12)
        try term.type("fg")
        // While stopped the server played what it held (a few seconds), then ran dry: the clock
        // goes on from there, not from the whole stop, and then one second a second, never back.
        var seen: [Int] = []
        let start = ProcessInfo.processInfo.systemUptime
        while ProcessInfo.processInfo.systemUptime - start < 6 {
            if let s = shownSeconds(term), s != seen.last { seen.append(s) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let elapsed = ProcessInfo.processInfo.systemUptime - start
        if seen.count > 1, seen.first == frozen { seen.removeFirst() }
        try term.press("q")
        #expect(try Shell.waitUntil { term.rows().last == "$" }, "\(term.screen())")
        let first = try #require(seen.first)
        #expect(first <= before + 6, "the clock jumped from \(before) to \(first): the stop counted as heard (\(seen))")
        // One second at a time: none skipped (running fast), none shown twice (going back), and
        // not standing still.
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $1 == $0 + 1 }, "the clock jumped or went back: \(seen)")
        #expect(seen.count >= Int(elapsed) - 1, "the clock stood still: \(seen) in \(elapsed) s")
    }
}
