import Foundation
import MotetTestSupport
import Testing

/// Third-party plugins run in a process of their own (docs/ISOLATION.md): whatever one does, the
/// music goes on bit-exact, the exit status is 0, one line names the plugin, its file and what
/// happened, and the restarted instance hears the current track first.
@Suite struct IsolationTests {
    /// Builds `misbehaving.c` as a third party would, into `directory`.
    static func buildMisbehaving(in directory: String, defines: [String] = []) throws -> String {
        try ProbePlugin.build(
            in: directory, fileName: "misbehaving.so", defines: defines,
            source: Paths.packageRoot + "/Tests/PluginHostTests/CPlugins/misbehaving.c")
    }

    /// Two tracks (1.5 s and 1 s) played in real time into a WAV file with the plugin `options`;
    /// returns the run's result, the plugin's lines and whether the WAV is every frame of both.
    private func play(
        _ options: String, run: MotetRun, seconds: (Double, Double) = (1.5, 1.0), extra: [String] = [], defines: [String] = []
    ) throws -> (result: ProcessResult, lines: [String], plugin: String, bitExact: Bool) {
        let plugin = try Self.buildMisbehaving(in: run.home, defines: defines)
        let a = run.path("a.ogg"), b = run.path("b.ogg"), wav = run.path("out.wav"), out = run.path("plugin.out")
        try Fixtures.oggVorbis(a, seconds: seconds.0, synth: ["sine", "330"], tags: .init(title: "First"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: seconds.1, synth: ["sine", "550"], tags: .init(title: "Second"), serial: 2)
        let result = try run.run(
            ["--no-config", "--output", "wav:\(wav)", "--status", "events"] + extra
                + ["--plugin", "\(plugin):out=\(out),\(options)", a, b], timeout: 90)
        let written = try wavData(wav)
        let bitExact = written.data == (try Fixtures.referenceDecode(a) + Fixtures.referenceDecode(b))
        let lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return (result, lines, plugin, bitExact)
    }

    private func linesAbout(_ plugin: String, in stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains("plugin misbehaving (\(plugin))") }
    }

    @Test(arguments: [
        ("abort", "died of SIGABRT"), ("exit", "exited with status 3"), ("segv", "died of SIGSEGV"),
        ("close", "its process"), ("garbage", "broke the framing of its connection"),
    ])
    func aPluginThatFailsOnItsOwnThreadIsRestartedAndTheMusicNeverNotices(what: String, said: String) throws {
        let run = try MotetRun("motet-isolation-\(what)")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let played = try play("do=\(what),after_ms=300,once=\(run.path("once"))", run: run)
        #expect(played.result.status == 0, "\(played.result.stderr)")
        #expect(played.bitExact)
        let about = linesAbout(played.plugin, in: played.result.stderr)
        #expect(about.count == 1, "\(played.result.stderr)")
        #expect(about.first?.contains(said) == true, "\(played.result.stderr)")
        #expect(about.first?.contains("restarting it") == true, "\(played.result.stderr)")
        #expect(!played.result.stderr.contains("Backtracing"))
        // The first instance heard the first track start; the second was told it again, by
        // request, then heard the rest.
        #expect(played.lines.filter { $0 == "create" }.count == 2, "\(played.lines)")
        #expect(played.lines.contains("started First reason 0"), "\(played.lines)")
        #expect(played.lines.contains("started First reason 4"), "\(played.lines)")
        #expect(played.lines.suffix(4) == ["started Second reason 0", "now-playing Second", "finished Second", "destroy"], "\(played.lines)")
    }

    @Test func whatPulseAudioReceivesStaysBitExactWhileAPluginAbortsOnItsOwnThread() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun("motet-isolation-pulse")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugin = try Self.buildMisbehaving(in: run.home)
        let result = try SoundServerChecks.expectBitExactPlayback(
            through: pulse, arguments: ["--plugin", "\(plugin):out=\(run.path("plugin.out")),do=abort,after_ms=300,once=\(run.path("once"))"],
            in: run)
        let about = linesAbout(plugin, in: result.stderr)
        #expect(about.count == 1 && about.first?.contains("died of SIGABRT") == true, "\(result.stderr)")
    }

    @Test func aPluginStuckInOnEventIsRestartedAfterTheWatchdog() throws {
        let run = try MotetRun("motet-isolation-spin")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        // It spins on the first event after 300 ms: the first track's finish, at 1.5 s.
        let played = try play("do=spin,after_ms=300,once=\(run.path("once"))", run: run, seconds: (1.5, 12))
        #expect(played.result.status == 0, "\(played.result.stderr)")
        #expect(played.bitExact)
        let about = linesAbout(played.plugin, in: played.result.stderr)
        #expect(about.count == 1, "\(played.result.stderr)")
        #expect(about.first?.contains("stopped taking events (one waited 10 s)") == true, "\(played.result.stderr)")
        // The new instance is told the first track, then gets the finish it never took, then the rest.
        #expect(played.lines.contains("started First reason 4"), "\(played.lines)")
        #expect(played.lines.filter { $0 == "finished First" }.count == 2, "\(played.lines)")
        #expect(played.lines.suffix(4) == ["started Second reason 0", "now-playing Second", "finished Second", "destroy"], "\(played.lines)")
    }

    @Test func aPluginThatAllocatesWithoutBoundReachesItsLimitAndIsRestarted() throws {
        let run = try MotetRun("motet-isolation-hog")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let played = try play(
            "do=hog,after_ms=200,once=\(run.path("once"))", run: run, seconds: (3, 1), extra: ["--plugin-memory-limit", "64"])
        #expect(played.result.status == 0, "\(played.result.stderr)")
        #expect(played.bitExact)
        let about = linesAbout(played.plugin, in: played.result.stderr)
        #expect(about.count == 1, "\(played.result.stderr)")
        #expect(about.first?.contains("restarting it") == true, "\(played.result.stderr)")
        #expect(about.first?.contains("its process reached its memory limit of 64 MiB (--plugin-memory-limit) and died of SIG") == true,
            "\(played.result.stderr)")
        #expect(played.lines.contains("started First reason 4"), "\(played.lines)")
    }

    @Test func aPluginThatKeepsFailingIsDisabledOnceAndStaysDisabled() throws {
        let run = try MotetRun("motet-isolation-disabled")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let played = try play("do=abort,after_ms=100", run: run, seconds: (4, 1))
        #expect(played.result.status == 0, "\(played.result.stderr)")
        #expect(played.bitExact)
        let about = linesAbout(played.plugin, in: played.result.stderr)
        #expect(about.count == 3, "\(played.result.stderr)")
        #expect(about.filter { $0.contains("disabled for the rest of this run") }.count == 1, "\(played.result.stderr)")
        #expect(about.last?.contains("disabled for the rest of this run") == true, "\(played.result.stderr)")
        #expect(played.lines.filter { $0 == "create" }.count == 3, "\(played.lines)")
        #expect(!played.lines.contains("started Second reason 0"), "\(played.lines)")
    }

    @Test func aPluginThatCrashesInAConstructorIsOneLineFromTheConfigFileAndExit64FromTheCommandLine() throws {
        let run = try MotetRun("motet-isolation-constructor")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugin = try Self.buildMisbehaving(in: run.home, defines: ["MISBEHAVE_IN_CONSTRUCTOR"])
        let a = run.path("a.ogg"), wav = run.path("out.wav")
        try Fixtures.oggVorbis(a, seconds: 0.5, synth: ["sine", "330"], tags: .init(title: "First"), serial: 1)
        let config = run.path("motet.conf")
        try "[plugin crasher]\nlibrary = \(plugin)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let fromFile = try run.run(["--config", config, "--output", "wav:\(wav)", "--untimed", a], timeout: 60)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try wavData(wav).data == (try Fixtures.referenceDecode(a)))
        let about = fromFile.stderr.split(separator: "\n").filter { $0.contains("plugin crasher: \(plugin)") }
        #expect(about.count == 1, "\(fromFile.stderr)")
        #expect(about.first?.contains("died of SIGSEGV") == true && about.first?.contains("while loading it") == true, "\(fromFile.stderr)")

        let fromCommandLine = try run.run(["--no-config", "--output", "null", "--plugin", plugin, a], timeout: 60)
        #expect(fromCommandLine.status == 64, "\(fromCommandLine.stderr)")
        #expect(fromCommandLine.stderr.contains("died of SIGSEGV"), "\(fromCommandLine.stderr)")
    }
}

/// At exit, what is still queued for a plugin is delivered for as long as it keeps taking events
/// (`MOTET_SHUTDOWN_STALL_MS`, `MOTET_SHUTDOWN_WAIT_MS`), isolated or in motet's process.
@Suite struct ExitDrainTests {
    @Test(arguments: ["third-party", "never"])
    func aScrobblerThatTakes100MillisecondsAnEventHearsEveryTrackOfAnUntimedRun(isolation: String) throws {
        let run = try MotetRun("motet-drain-\(isolation)")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let probe = try ProbePlugin.build(in: run.home)
        var files: [String] = []
        for i in 1...20 {
            let file = run.path("t\(i).ogg")
            try Fixtures.oggVorbis(file, seconds: 0.2, synth: ["sine", "\(200 + 20 * i)"], tags: .init(title: "T\(i)"), serial: i)
            files.append(file)
        }
        let out = run.path("probe.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--untimed", "--status", "quiet", "--plugin-isolation", isolation,
             "--plugin", "\(probe):sleep_ms=100,out=\(out)"] + files, timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("gave up"), "\(result.stderr)")
        let finished = ProbePlugin.lines(out).filter { $0.hasPrefix("finished ") }
        #expect(finished.count == 20, "\(finished)")
        #expect(ProbePlugin.lines(out).last == "destroy")
    }

    @Test(arguments: ["third-party", "never"])
    func aPluginStuckInOnEventDelaysQuittingByTheStallTimeAndItsLostTracksAreCounted(isolation: String) throws {
        let run = try MotetRun("motet-drain-stuck-\(isolation)")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let probe = try ProbePlugin.build(in: run.home)
        var files: [String] = []
        for i in 1...3 {
            let file = run.path("t\(i).ogg")
            try Fixtures.oggVorbis(file, seconds: 0.2, synth: ["sine", "\(300 + 50 * i)"], tags: .init(title: "T\(i)"), serial: i)
            files.append(file)
        }
        // The gate never opens: the plugin is stuck in its first on_event.
        let started = Stopwatch()
        let result = try run.run(
            ["--no-config", "--output", "null", "--untimed", "--status", "quiet", "--plugin-isolation", isolation,
             "--plugin", "\(probe):gate=\(run.path("never")),out=\(run.path("probe.out"))"] + files, timeout: 60)
        let took = started.seconds
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stderr.split(separator: "\n").first { $0.contains("gave up waiting for plugin probe (") }
        #expect(line?.contains("at exit: it took no event for 2 s; it did not get the events of 3 tracks") == true, "\(result.stderr)")
        #expect(took < 6, "motet took \(took) s to quit")
    }
}

/// An isolated plugin that describes its options runs sandboxed: it may write to its output
/// paths, its state directory and the artwork cache, and nowhere else.
@Suite struct SandboxTests {
    @Test(arguments: [true, false])
    func aPluginThatAppendsToBashrcGetsEACCESWhileItsOwnOutputPathWorks(sandboxed: Bool) throws {
        let run = try MotetRun("motet-sandbox-\(sandboxed)")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugin = try IsolationTests.buildMisbehaving(in: run.home)
        let a = run.path("a.ogg"), bashrc = run.path(".bashrc"), out = run.path("out/plugin.out")
        try Fixtures.oggVorbis(a, seconds: 0.3, synth: ["sine", "330"], tags: .init(title: "First"), serial: 1)
        try "# my shell\n".write(toFile: bashrc, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: run.path("out"), withIntermediateDirectories: true)
        let result = try run.run(
            ["--no-config", "--output", "null", "--untimed", "--plugin-sandbox", sandboxed ? "on" : "off",
             "--plugin", "\(plugin):out=\(out),append=\(bashrc),peek=yes", a], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        // Its own output path works either way: it wrote every line to it.
        #expect(lines.first == "create" && lines.last == "destroy", "\(lines)")
        if sandboxed {
            #expect(lines.contains("append Permission denied"), "\(lines)")
            // Tracing and reading another process's memory are refused by the seccomp filter.
            #expect(lines.contains("peek Operation not permitted"), "\(lines)")
            #expect(try String(contentsOfFile: bashrc, encoding: .utf8) == "# my shell\n")
        } else {
            #expect(lines.contains("append written"), "\(lines)")
            #expect(lines.contains("peek read"), "\(lines)")
        }
        // Its state directory was made for it, private to the user.
        var info = stat()
        #expect(stat(run.path("state/motet/plugins/misbehaving"), &info) == 0 && info.st_mode & 0o777 == 0o700)
    }
}

/// Isolation is invisible to a plugin, whatever it was built with.
@Suite struct IsolatedPluginKindsTests {
    @Test func anABI10PluginRunsIsolatedUnsandboxedAndHearsEveryTrack() throws {
        let run = try MotetRun("motet-isolated-1.0")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let probe = try ProbePlugin.build(in: run.home, fileName: "old.so", abi1_0: true)
        let a = run.path("a.ogg"), b = run.path("b.ogg"), out = run.path("old.out")
        try Fixtures.oggVorbis(a, seconds: 0.3, synth: ["sine", "330"], tags: .init(title: "First"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 0.3, synth: ["sine", "550"], tags: .init(title: "Second"), serial: 2)
        let result = try run.run(
            ["--no-config", "--output", "null", "--untimed", "--plugin", "\(probe):out=\(out)", a, b], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        // Said once: it runs in a process of its own, but describes nothing to sandbox it by.
        let said = result.stderr.split(separator: "\n").filter { $0.contains("runs in a process of its own but not sandboxed") }
        #expect(said.count == 1 && said.first?.contains(probe) == true, "\(result.stderr)")
        let finished = ProbePlugin.lines(out).filter { $0.hasPrefix("finished ") }
        #expect(finished.count == 2, "\(ProbePlugin.lines(out))")
        #expect(!ProbePlugin.lines(out).contains { $0.hasPrefix("started ") })  // ABI 1.1 events stay away
    }

    @Test(.runsABundledDelegateIsolated) func aSwiftPluginBuiltOnTheKitRunsIsolatedAndSandboxedAndWritesItsFile() throws {
        let run = try MotetRun("motet-isolated-swift")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let a = run.path("a.ogg"), state = run.path("json/now.json"), events = run.path("json/events.jsonl")
        try Fixtures.oggVorbis(a, seconds: 1.5, synth: ["sine", "330"], tags: .init(title: "Swift Song"), serial: 1)
        // The bundled json delegate is a Swift plugin built on the kit like any third party's.
        let result = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet", "--plugin-isolation", "always",
             "--plugin", "json:path=\(state)", "--list-plugins"], timeout: 60)
        #expect(result.stdout.contains("runs in a process of its own (--plugin-isolation always)"), "\(result.stdout)")
        let played = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet", "--plugin-isolation", "always",
             "--plugin", "json:path=\(state),events=\(events)", a], timeout: 60)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(!played.stderr.contains("not sandboxed"), "\(played.stderr)")
        // Both its files, in the directory its output-path options name, are whole and valid.
        #expect(JSONDelegateFiles.state(state) != nil)
        #expect(try JSONDelegateFiles.schemaErrors([("now-playing", state), ("events", events)]) == "")
        let lines = try JSONDelegateFiles.events(events)
        #expect(lines.contains { "\($0)".contains("Swift Song") }, "\(lines)")
    }
}
