import Foundation
import Glibc
import MotetTestSupport
import Testing

/// How often Motet's threads wake while it plays headless (#16), counted as powertop does: the
/// voluntary context switches of each thread (/proc/PID/task/*/status), by thread name. The
/// server is `PulseRig`'s real-time pipe sink, which asks for audio every `minreq` (0.5 s), as
/// PipeWire does: the worst case for a player that refills rarely.
///
/// What must hold: libpulse's loop thread wakes only for the server's messages (two per request
/// on this sink), not also for each of our writes and for its lock (15.5 a second before the
/// staging ring, at 5a0e629 with requests every 0.25 s; 8.5 with the ring and the same requests),
/// and the sink thread wakes for a refill of half its staging ring (1.5 s), not for each request
/// (5.9 a second before; 1.4 with the ring). The bounds sit between, with room for a busy machine.
@Suite(.serialized) struct WakeupTests {
    /// Voluntary context switches so far, by thread name.
    private func switches(_ pid: pid_t) -> [String: Int] {
        var byName: [String: Int] = [:]
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [:] }
        for tid in tasks {
            guard let comm = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8),
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches") }),
                let count = Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "")
            else { continue }
            byName[comm.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += count
        }
        return byName
    }

    @Test(.measuresTime) func onAPulseAudioThatAsksEveryQuarterSecondTheThreadsWakeRarely() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 30, synth: ["sine", "440"])
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "pulse", "--no-config", "--status", "quiet", ogg],
            environment: run.environment.merging(pulse.environment) { $1 }, stdout: run.path("out.txt"),
            stderr: run.path("err.txt"))
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 15) { pulse.capturedBytes().contains { $0 != 0 } }, "no sound reached the sink")
        Thread.sleep(forTimeInterval: 3)  // past the first fills
        let before = switches(motet.pid)
        let window = 8.0
        Thread.sleep(forTimeInterval: window)
        let after = switches(motet.pid)
        #expect(motet.isRunning)
        func rate(_ name: String) -> Double { Double((after[name] ?? 0) - (before[name] ?? 0)) / window }
        print("voluntary wake-ups per second: " + after.keys.sorted().map { "\($0) \(String(format: "%.2f", rate($0)))" }.joined(separator: ", "))
        #expect(rate("motet-pulse") <= 11, "libpulse's loop thread woke \(rate("motet-pulse")) times a second")
        #expect(rate("motet-sink") <= 3, "the sink thread woke \(rate("motet-sink")) times a second")
    }

    /// In a terminal, in the foreground, with no key pressed, the keyboard reader sleeps: it
    /// used to look every 500 ms (2 wake-ups a second) for a move to the background.
    @Test(.measuresTime) func theKeyboardReaderSleepsUntilAKeyIsPressed() throws {
        let run = try MotetRun()
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 20, synth: ["sine", "440"], tags: .init(title: "Tone"))
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", "--status", "line", ogg], environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Tone"), "\(term.screen())")
        let pid = try #require(
            Int32(try Shell.run(["pgrep", "-n", "-f", "^\(Paths.motet) .*\(ogg)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        Thread.sleep(forTimeInterval: 0.5)
        let before = switches(pid)["motet-keys"]
        Thread.sleep(forTimeInterval: 4)
        let after = switches(pid)["motet-keys"]
        let woke = try #require(after, "no motet-keys thread: \(switches(pid))") - (before ?? 0)
        print("keyboard reader: \(woke) wake-ups in 4 s")
        #expect(woke <= 1, "the keyboard reader woke \(woke) times in 4 s without a key")
        // It still reads keys at once.
        try term.press("q")
        #expect(try Shell.waitUntil(timeout: 5) { kill(pid, 0) != 0 }, "q did not quit")
    }
    /// A background job (`motet FILE &` in an interactive bash) draws nothing, so nothing wakes
    /// for the status line: the control thread's redraw every second stops, and the keyboard
    /// reader looks only once a second whether it is the foreground job again (bash's `fg` of a
    /// running job sends no SIGCONT, so it has to look; it looked every 200 ms, 20 times in 4 s).
    /// After `fg` the status line is back at once and advances.
    @Test func inTheBackgroundNothingWakesForTheStatusLine() throws {
        let run = try MotetRun()
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 30, synth: ["sine", "440"], tags: .init(title: "Tone"))
        let term = try PlayerTerminal(
            command: ["bash", "--norc", "-i"], environment: run.environment.merging(["PS1": "$ "]) { $1 }, columns: 100, rows: 20)
        defer { term.close() }
        #expect(try term.waitFor("$"), "\(term.screen())")
        try term.type("\(Paths.motet) --output null --no-config \(ogg) &")
        var pid: Int32 = 0
        #expect(
            try Shell.waitUntil(timeout: 10) {
                pid = Int32((try? Shell.run(["pgrep", "-n", "-f", "^\(Paths.motet) .*\(ogg)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "") ?? 0
                return pid > 0 && switches(pid)["motet-keys"] != nil
            }, "no player with a keyboard reader\n\(term.screen())")
        Thread.sleep(forTimeInterval: 1.5)  // past the start
        let before = switches(pid)
        Thread.sleep(forTimeInterval: 4)
        let after = switches(pid)
        func woke(_ name: String) -> Int { (after[name] ?? 0) - (before[name] ?? 0) }
        print("in the background, wake-ups in 4 s: " + after.keys.sorted().map { "\($0) \(woke($0))" }.joined(separator: ", "))
        #expect(!term.screen().contains("▶"), "the background player drew on the shell's screen\n\(term.screen())")
        // The control thread ("motet", the main thread) has nothing to do on null in 4 s of a 30 s
        // track; it woke 4 times for the redraws.
        // ThreadSanitizer's own background thread inherits the main thread's name and wakes ten
        // times a second: the control thread cannot be told apart under it.
        if ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil {
            #expect(woke("motet") <= 2, "the control thread woke \(woke("motet")) times in 4 s in the background")
        }
        #expect(woke("motet-keys") <= 6, "the keyboard reader woke \(woke("motet-keys")) times in 4 s in the background")

        try term.type("fg")
        #expect(try Shell.waitUntil(timeout: 5) { term.statusLine().hasPrefix("▶ 0:") }, "no status line after fg\n\(term.screen())")
        let first = term.statusLine().prefix(6)
        #expect(
            try Shell.waitUntil(timeout: 5) { term.statusLine().hasPrefix("▶ 0:") && term.statusLine().prefix(6) != first },
            "the status line stood still at \(first) after fg\n\(term.screen())")
        try term.press("q")
        #expect(try Shell.waitUntil(timeout: 5) { kill(pid, 0) != 0 }, "q did not quit after fg")
    }

    /// At the live edge of a real station (icecast2 + ices2, which sends each ~3 KiB Ogg page on
    /// its own, several a second), the network thread naps while the listener has seconds ahead
    /// and the socket gathers the pages, so it, the decoder and the sink wake about once a second
    /// (1.0 each here). Before, the network thread and the decoder woke for every page (5.1 a
    /// second each on this station). libcurl hands a round over in pieces: the decoder is woken
    /// once at the end of the round, not for each piece (1.1 to 1.9 a second in seven runs; 1.8 to
    /// 2.9 when each piece woke it, over the bound in two runs of five).
    @Test(.measuresTime) func atTheLiveEdgeOfAStationTheNetworkAndDecoderThreadsWakeAboutOnceASecond() throws {
        // Noise at -q 6: about 16 KiB a second, a page every 0.25 s or so, as a 128 kbit/s station.
        let station = try IcecastRig(
            songs: [
                .init(title: "Pacing One", artist: "Wake Counter", seconds: 8, synth: ["pinknoise"]),
                .init(title: "Pacing Two", artist: "Wake Counter", seconds: 8, synth: ["brownnoise"]),
            ], quality: 6)
        defer { station.stop() }
        // A station on air for a while has its burst (64 KiB, 4 s here) ready for a new listener,
        // who then has 4 s ahead; one that just started has less, and the naps are shorter.
        Thread.sleep(forTimeInterval: 4)
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "pulse", "--no-config", "--status", "quiet", station.url],
            environment: run.environment.merging(pulse.environment) { $1 }, stdout: run.path("out.txt"),
            stderr: run.path("err.txt"))
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 15) { switches(motet.pid)["motet-decode"] != nil }, "no decoder thread")
        Thread.sleep(forTimeInterval: 4)  // past the burst and the first fills
        let before = switches(motet.pid)
        let window = 8.0
        Thread.sleep(forTimeInterval: window)
        let after = switches(motet.pid)
        #expect(motet.isRunning, "\((try? String(contentsOfFile: run.path("err.txt"), encoding: .utf8)) ?? "")")
        func rate(_ name: String) -> Double { Double((after[name] ?? 0) - (before[name] ?? 0)) / window }
        print("live station, voluntary wake-ups per second: " + after.keys.sorted().map { "\($0) \(String(format: "%.2f", rate($0)))" }.joined(separator: ", "))
        #expect(rate("motet-net") <= 2.5, "the network thread woke \(rate("motet-net")) times a second")
        #expect(rate("motet-decode") <= 2.5, "the decoder woke \(rate("motet-decode")) times a second")
        #expect(rate("motet-sink") <= 2.5, "the sink thread woke \(rate("motet-sink")) times a second")
    }
}
