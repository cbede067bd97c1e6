import Foundation
import MotetTestSupport
import Testing

/// The status line in real terminals (tmux) of several widths, with CJK and emoji tags: one row,
/// measured in columns, the useful part first, the last column empty.
@Suite struct StatusLineTests {
    static let title = "東京事変の歌"
    static let album = "教育 🎵 アルバム"

    func cjkTrack(_ run: MotetRun, seconds: Double = 30) throws -> String {
        let f = run.path("cjk.ogg")
        try Fixtures.oggVorbis(f, seconds: seconds, tags: .init(title: Self.title, artists: ["椎名林檎"], album: Self.album))
        return f
    }

    func player(_ run: MotetRun, _ files: [String], columns: Int, extra: [String] = [], environment: [String: String] = [:]) throws -> PlayerTerminal {
        try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config"] + extra + files,
            environment: run.environment.merging(environment) { $1 }, columns: columns, rows: 12)
    }

    /// The rows that show a status line (elapsed / duration).
    func statusRows(_ term: PlayerTerminal) -> [String] { term.rows().filter { $0.contains(" / 0:30") } }

    @Test(arguments: [40, 80, 120])
    func aCJKTitleKeepsTheStatusLineOnOneRow(columns: Int) throws {
        let run = try MotetRun()
        let term = try player(run, [try cjkTrack(run)], columns: columns, extra: ["--volume", "85"])
        defer { term.close() }
        // At least three redraws (a loaded machine may show a later second first).
        #expect(
            try Shell.waitUntil { (3...9).contains { term.screen().contains("0:0\($0) / 0:30") } }, "\(term.screen())")
        // Redrawn every second for three seconds: still one status row, and no wrapped pieces.
        #expect(statusRows(term).count == 1, "\(term.screen())")
        let (row, column) = term.cursor()
        #expect(row.hasPrefix("▶ 0:0"), "\(term.screen())")
        #expect(row.contains("東京事変"), "\(row)")
        // Each field is a bidi isolate on the terminal, and the marks take no column.
        #expect(term.rawScreen().contains("\u{2068}\(Self.title)\u{2069} — "), "\(term.rawScreen().debugDescription)")
        #expect(column <= columns - 1, "the cursor at column \(column): the last column must stay empty\n\(term.screen())")
        #expect(!term.rows().contains { $0.hasPrefix("? keys") || $0.hasPrefix("vol") || $0.hasPrefix("-") }, "\(term.screen())")
        // Title, artist and album whole before the volume, the key hint and the bar.
        if columns >= 80 { #expect(row.contains("\(Self.title) — 椎名林檎 — \(Self.album)  ") && row.contains("vol 85%"), "\(row)") }
        if columns >= 120 {
            #expect(row.contains("[=") && row.contains("vol 85%") && row.contains("? keys"), "\(row)")
        } else if columns < 80 {
            #expect(row.contains("…") && !row.contains("vol 85%"), "\(row)")
        }
        #expect(try term.quit())
    }

    @Test func volumeAndLikesAreSeenAt40Columns() throws {
        let run = try MotetRun()
        let term = try player(run, [try cjkTrack(run)], columns: 40, extra: ["--volume", "50"])
        defer { term.close() }
        #expect(try term.waitFor("東京事変"), "\(term.screen())")
        try term.press("+")
        #expect(try term.waitFor("vol 55%"), "\(term.screen())")
        try term.press("l")
        #expect(try term.waitFor("♥ liked"), "\(term.screen())")
        #expect(statusRows(term).count == 1, "\(term.screen())")
        #expect(try term.quit())
    }

    @Test func shrinkingAndGrowingLeavesOneStatusLineAndCtrlLRedraws() throws {
        let run = try MotetRun()
        let term = try player(run, [try cjkTrack(run)], columns: 170, extra: ["--volume", "85"])
        defer { term.close() }
        #expect(try term.waitFor("vol 85%"), "\(term.screen())")
        try term.resize(columns: 40)
        Thread.sleep(forTimeInterval: 0.5)
        try term.resize(columns: 80)
        #expect(try Shell.waitUntil(timeout: 3) { term.statusLine().hasPrefix("▶") }, "\(term.screen())")
        #expect(statusRows(term).count == 1, "\(term.screen())")
        #expect(term.cursor().column <= 79, "\(term.screen())")
        try term.pressKey("C-l")
        // A cleared screen with the status line alone on it.
        #expect(try Shell.waitUntil(timeout: 3) { term.rows().count == 1 && term.rows()[0].hasPrefix("▶") }, "\(term.screen())")
        #expect(try term.quit())
    }

    /// A window narrowed while the player is stopped (SIGSTOP from outside, not Ctrl-Z): the
    /// terminal splits the wide line over several rows, and on SIGCONT the player takes SIGCONT
    /// before SIGWINCH. Whichever draws first must clear those rows (as must a redraw that runs
    /// between a resize and its SIGWINCH, which a fresh-clone run under TSan once caught).
    @Test func aWindowNarrowedWhileThePlayerIsStoppedLeavesOneStatusLine() throws {
        let run = try MotetRun()
        // Under a shell: tmux continues a pane's own process as soon as it stops.
        let term = try PlayerTerminal(
            command: ["sh", "-c", "\"$0\" \"$@\"; :", Paths.motet, "--output", "null", "--no-config", "--volume", "85", try cjkTrack(run)],
            environment: run.environment, columns: 170, rows: 12)
        defer { term.close() }
        #expect(try Shell.waitUntil { term.statusLine().hasPrefix("▶") && term.statusLine().contains("vol 85%") }, "\(term.screen())")
        let shell = try term.pid()
        let pid = try #require(Int32(try Shell.run(["pgrep", "-P", "\(shell)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        #expect(try Shell.waitUntil(timeout: 5) { (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") T ") ?? false })
        try term.resize(columns: 40)
        // tmux splits the line over three rows (the first scrolled out of sight).
        #expect(try Shell.waitUntil(timeout: 5) { term.rows().count > 1 }, "the terminal did not reflow the line: \(term.screen())")
        kill(pid, SIGCONT)
        #expect(try Shell.waitUntil(timeout: 5) { term.cursor().row.hasPrefix("▶") && !term.cursor().row.contains("vol") }, "\(term.screen())")
        // After a redraw or two, still the status line alone on the screen.
        Thread.sleep(forTimeInterval: 1.2)
        #expect(term.rows().count == 1 && statusRows(term).count == 1, "\(term.screen())")
        #expect(try term.quit())
    }

    @Test func aDumbTerminalGetsNoEscapeSequences() throws {
        let run = try MotetRun()
        let bytes = run.path("terminal.out")
        // The player starts after the recording does.
        let term = try PlayerTerminal(
            command: ["sh", "-c", "sleep 0.5; exec \"$0\" \"$@\"", Paths.motet, "--output", "null", "--no-config", "--volume", "85", try cjkTrack(run)],
            environment: run.environment.merging(["TERM": "dumb"]) { $1 }, columns: 80, rows: 12)
        defer { term.close() }
        try term.record(to: bytes)
        // A redraw at least two seconds in (a loaded machine may show a later second first).
        var shown = ""
        #expect(
            try Shell.waitUntil {
                shown = (2...9).map { "0:0\($0) / 0:30" }.first { term.screen().contains($0) } ?? ""
                return !shown.isEmpty
            }, "\(term.screen())")
        try term.press("+")
        #expect(try term.waitFor("vol 90%"), "\(term.screen())")
        #expect(statusRows(term).count == 1, "\(term.screen())")
        #expect(try term.quit())
        let written = try String(contentsOfFile: bytes, encoding: .utf8)
        #expect(!shown.isEmpty && written.contains(shown))
        #expect(!written.contains("\u{1b}"), "\(written.debugDescription)")
    }

    @Test func pausedAndStoppedHaveTheirOwnGlyphsAndTheKeysAreListed() throws {
        let run = try MotetRun()
        let term = try player(run, [try cjkTrack(run)], columns: 80)
        defer { term.close() }
        #expect(try Shell.waitUntil { term.statusLine().hasPrefix("▶ 0:") }, "\(term.screen())")
        try term.press(" ")
        #expect(try Shell.waitUntil { term.statusLine().hasPrefix("⏸ 0:") }, "\(term.screen())")
        #expect(term.statusLine().contains("? keys"), "\(term.screen())")
        try term.press("?")
        #expect(try term.waitFor("keys: space pause"), "\(term.screen())")
        // and which of them do nothing on a live stream.
        #expect(try term.waitFor("On a live stream: seek does nothing"), "\(term.screen())")
        // Esc alone does nothing; Q quits like q.
        try term.pressKey("Escape")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(term.isRunning)
        try term.press("Q")
        #expect(try Shell.waitUntil(timeout: 10) { !term.isRunning })
    }
}

extension StatusLineTests {
    @Test func theLogDelegateOnTheTerminalPrintsAboveTheStatusLine() throws {
        let run = try MotetRun()
        var files: [String] = []
        for (i, title) in ["First", "Second"].enumerated() {
            let f = run.path("\(i).ogg")
            try Fixtures.oggVorbis(f, seconds: 20, tags: .init(title: title, artists: ["Band"], album: "Record"), serial: i + 1)
            files.append(f)
        }
        let term = try player(run, files, columns: 200, extra: ["--plugin", "log"])
        defer { term.close() }
        #expect(try Shell.waitUntil { term.statusLine().contains("First — Band — Record") }, "\(term.screen())")
        try term.press("n")
        #expect(try Shell.waitUntil { term.statusLine().contains("Second — Band — Record") }, "\(term.screen())")
        #expect(try Shell.waitUntil { term.rows().contains { $0.contains("now-playing") && $0.contains("Second") } }, "\(term.screen())")
        // Each log line on its own row, none written into a status line.
        let mixed = term.rows().filter { $0.contains("now-playing") && $0.contains(" — Band — ") }
        #expect(mixed.isEmpty, "\(term.screen())")
        #expect(term.statusLine().hasPrefix("▶"), "\(term.screen())")
        #expect(try term.quit())
    }
}
