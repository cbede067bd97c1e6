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
        Thread.sleep(forTimeInterval: 12)
        try term.type("fg")
        // While stopped the server played what it held (a few seconds), then ran dry. At `fg` the
        // line shows what the player knew at the stop until the output has heard from the server,
        // which takes milliseconds; within 0.3 s the clock goes on from where the server
        // ran dry, not from the whole stop, and then one second a second, never back.
        var readings: [(seconds: Int, at: Double)] = []
        // Every change of the cursor's row, whatever it shows (a ▶ row is the status line), and
        // every look's start, for the failure's message and to tell a gap in the looking (each
        // look spawns a tmux client: on a loaded machine one can take a second) from a second the
        // clock skipped.
        var rows: [(row: String, at: Double)] = []
        var looks: [Double] = []
        let start = ProcessInfo.processInfo.systemUptime
        while ProcessInfo.processInfo.systemUptime - start < 6.5 {
            let at = ProcessInfo.processInfo.systemUptime - start
            looks.append(at)
            let row = term.cursor().row
            if row != rows.last?.row { rows.append((row, at)) }
            if let s = shownSeconds(row), s != readings.last?.seconds { readings.append((s, at)) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        try term.press("q")
        #expect(try Shell.waitUntil { term.rows().last == "$" }, "\(term.screen())")
        let settledAt = 0.3
        let early = readings.filter { $0.at < settledAt }
        let seenReadings = (early.last.map { [$0] } ?? []) + readings.filter { $0.at >= settledAt }
        let seen = seenReadings.map(\.seconds)
        let gaps = zip(looks, looks.dropFirst()).filter { $1 - $0 > 0.5 }
        let all = readings.map { "\($0.seconds)@\(String(format: "%.2f", $0.at))" }.joined(separator: ", ")
            + "; the rows: " + rows.map { "\(String(format: "%.2f", $0.at)) \"\($0.row.prefix(24))\"" }.joined(separator: ", ")
            + "; looks more than 0.5 s apart: " + gaps.map { String(format: "%.2f-%.2f", $0.0, $0.1) }.joined(separator: ", ")
        let first = try #require(seen.first)
        #expect(first <= before + 6, "the clock jumped from \(before) to \(first): the stop counted as heard (\(all))")
        #expect(early.allSatisfy { $0.seconds <= first }, "the clock went back after fg: \(all)")
        // One second at a time: none skipped (running fast, or a stale reading corrected late),
        // none shown twice (going back), and not standing still. A second may be missing only
        // where the test did not look for more than half a second (and then only one per gap).
        let steps = zip(seenReadings, seenReadings.dropFirst()).filter { pair in
            let unseen = gaps.contains { $0.0 >= pair.0.at && $0.1 <= pair.1.at }
            return !(pair.1.seconds == pair.0.seconds + 1 || (unseen && pair.1.seconds == pair.0.seconds + 2))
        }
        #expect(steps.isEmpty, "the clock jumped or went back: \(all)")
        // Not standing still: in the 6.5 s looked at, the clock went on by at least 5 seconds.
        // Counted by what it showed, not by how many changes the test saw: on a loaded machine
        // a look (a tmux client) can take most of a second, and the seconds between two looks
        // are never seen (6@0.00, 7@0.95, 9@3.06, 11@5.91, with looks 0.6 to 0.9 s apart).
        #expect((seen.last ?? first) - first >= 5, "the clock stood still: \(all)")
        // A stale reading corrected later runs through the seconds between at once (4, then 5 and
        // 6 within milliseconds half a second after fg): a clock that ticks never changes twice
        // within a fifth of a second. When a second ticked is known only to lie between the look
        // that first showed it and the look before: after a gap in the looking, the first look
        // sees a second that may have ticked long before (a busy run: nothing looked from 0.20 to
        // 1.96 s, then 7@1.96 and 8@1.98, a clock ticking on time). So two changes came too fast
        // only when even the earliest the first could have come is within 0.2 s of the second.
        let settled = readings.filter { $0.at >= settledAt }.map(\.at)
        let earliest: (Double) -> Double = { seen in looks.last { $0 < seen } ?? seen }
        #expect(zip(settled, settled.dropFirst()).allSatisfy { $1 - earliest($0) >= 0.2 }, "the clock ran fast after fg: \(all)")
    }
}
