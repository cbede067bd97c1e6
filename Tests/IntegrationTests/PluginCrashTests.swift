import Foundation
import MotetTestSupport
import Testing

/// The real player with a plugin that crashes in motet's process (`--plugin-isolation never`, where
/// the crash guard catches it): one line names the plugin, the call and the signal;
/// the audio is untouched, the other plugins hear every track, and the exit status is 0.
@Suite struct PluginCrashTests {
    /// The titles of the tracks the probe writing to `path` saw finish ("title=First", ...).
    private func finishedTracks(_ path: String) -> [String] {
        ProbePlugin.lines(path).filter { $0.hasPrefix("finished ") }.compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("title=") }.map(String.init)
        }
    }

    @Test(arguments: ["create", "finished"])
    func aCrashingPluginIsOneLineAndPlaybackGoesOn(where crash: String) throws {
        let run = try MotetRun("motet-crash")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let probe = try ProbePlugin.build(in: run.home)
        let a = run.path("a.ogg"), b = run.path("b.ogg")
        try Fixtures.oggVorbis(a, seconds: 0.8, synth: ["sine", "300"], tags: .init(title: "First"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 0.6, synth: ["sine", "600"], tags: .init(title: "Second"), serial: 2)
        let crasher = run.path("crasher.out"), good = run.path("good.out"), wav = run.path("out.wav")
        let result = try run.run([
            "--no-config", "--output", "wav:\(wav)", "--untimed", "--status", "events",
            "--plugin-isolation", "never",
            "--plugin", "\(probe):crash=\(crash),out=\(crasher)", "--plugin", "\(probe):out=\(good)", a, b,
        ], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")

        let about = result.stderr.split(separator: "\n").filter { $0.contains("crashed") }
        #expect(about.count == 1, "\(result.stderr)")
        let call = crash == "create" ? "crashed in create with SIGSEGV" : "crashed in on_event (track-finished) with SIGSEGV"
        #expect(about.first?.contains(call) == true, "\(result.stderr)")
        #expect(about.first?.contains(probe) == true)
        #expect(!result.stderr.contains("Backtracing"))

        // The audio is every frame of both files; the good plugin heard both tracks end.
        let written = try wavData(wav)
        #expect(written.data == (try Fixtures.referenceDecode(a) + Fixtures.referenceDecode(b)))
        #expect(finishedTracks(good) == ["title=First", "title=Second"])
        // The crasher got at most the event it crashed on.
        #expect(finishedTracks(crasher) == (crash == "create" ? [] : ["title=First"]))
    }
}

/// `--list-plugins` looks at each file in a child of its own: a plugin that aborts or crashes
/// while being loaded is one "cannot load" entry, the listing goes on, and the exit status says
/// that something cannot load.
@Suite struct ListPluginsCrashTests {
    @Test func aPluginThatAbortsOrCrashesWhileListedEndsOnlyItsOwnEntry() throws {
        let run = try MotetRun("motet-list-crash")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let plugins = run.path("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let header = "#include <stdint.h>\n#include <stdlib.h>\n"
            + "__attribute__((visibility(\"default\"))) const void *motet_plugin_entry(uint32_t major, uint32_t minor) {\n"
            + "    (void)major; (void)minor;\n"
        for (name, body) in [
            ("aborts", "    abort();\n}\n"),
            ("segfaults", "    volatile int *nowhere = (int *)0; *nowhere = 1; return 0;\n}\n"),
        ] {
            try (header + body).write(toFile: run.path(name + ".c"), atomically: true, encoding: .utf8)
            try Shell.check(["cc", "-shared", "-fPIC", "-o", plugins + "/" + name + ".so", run.path(name + ".c")])
        }
        // A good plugin after them, in sort order.
        try ProbePlugin.build(in: plugins, fileName: "zprobe.so")
        let r = try run.run(["--no-config", "--list-plugins"], extraEnvironment: ["MOTET_PLUGIN_PATH": plugins])
        #expect(r.status == 1, "a plugin cannot load: \(r.stderr)")
        #expect(r.stdout.contains("  aborts  cannot load: \(plugins)/aborts.so: crashed while being loaded with SIGABRT (abort)"), "\(r.stdout)")
        // Under a sanitizer its own SIGSEGV handler reports the crash and exits (ThreadSanitizer:
        // status 66): the entry still says the file cannot load, and the listing goes on.
        let segfaultLine =
            ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil
            ? "  segfaults  cannot load: \(plugins)/segfaults.so: crashed while being loaded with SIGSEGV (segmentation fault)"
            : "  segfaults  cannot load: \(plugins)/segfaults.so: "
        #expect(r.stdout.contains(segfaultLine), "\(r.stdout)")
        #expect(r.stdout.contains("  zprobe  9.8.7  Probe (org.motet.test.probe)"), "the listing went on: \(r.stdout)")
        // The bundled plugins are listed and loadable as before, with their options.
        #expect(r.stdout.contains("      level=string (default: info)"), "\(r.stdout)")
        #expect(!r.stderr.contains("Backtrac") && !r.stderr.contains("Fatal"), "\(r.stderr)")

        // With only loadable plugins the exit status is 0.
        let clean = try run.run(["--no-config", "--list-plugins"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
    }
}
