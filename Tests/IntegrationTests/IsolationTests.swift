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
