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
        #expect(try Shell.waitUntil { term.cursor().row.hasPrefix("▶ 0:0") }, "\(term.screen())")
        try term.press("n")  // raw mode after fg: no Enter
        #expect(try term.waitFor("Second — Band"), "\(term.screen())")
        try term.press("q")
        #expect(try Shell.waitUntil { term.rows().last == "$" }, "\(term.screen())")
    }
}
