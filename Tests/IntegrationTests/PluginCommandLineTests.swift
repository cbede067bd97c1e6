import Foundation
import MotetTestSupport
import Testing

/// A plugin named on the command line that cannot start is a usage error (exit 64, nothing
/// plays); the same plugin from the config file is a warning and playback goes on.
@Suite struct PluginCommandLineTests {
    private func track(_ run: MotetRun) throws -> String {
        let f = run.path("song.ogg")
        try Fixtures.oggVorbis(f, seconds: 0.3, tags: .init(title: "Song"))
        return f
    }

    private let quick = ["--output", "null", "--untimed", "--status", "events"]

    @Test func aMistypedPluginOnTheCommandLineExits64WithTheNamesThatExist() throws {
        let run = try MotetRun()
        let song = try track(run)
        let r = try run.run(quick + ["--no-config", "--plugin", "jsn", song])
        #expect(r.status == 64, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "one line: \(r.stderr)")
        let line = lines.first ?? ""
        // The near name suggested and the bundled plugins listed, then where it looked.
        #expect(line.hasPrefix("motet: plugin jsn: not found (did you mean 'json'?); the plugins found are "), "\(line)")
        #expect(line.contains("; looked for jsn.so or libmotet-jsn.so in: "), "\(line)")
        for bundled in ["json", "log", "mpris", "notify", "web"] { #expect(line.contains(bundled), "\(line)") }
        #expect(line.hasSuffix("(from --plugin)"))
        #expect(r.stdout.isEmpty, "nothing played: \(r.stdout)")
    }

    @Test func aPluginFileThatCannotLoadOrABadOptionExits64() throws {
        let run = try MotetRun()
        let song = try track(run)
        let notELF = run.path("notes.so")
        try "not a shared object\n".write(toFile: notELF, atomically: true, encoding: .utf8)
        let file = try run.run(quick + ["--no-config", "--plugin", notELF, song])
        #expect(file.status == 64, "\(file.stderr)")
        #expect(file.stderr.contains("motet: plugin notes: \(notELF): not a shared object"), "\(file.stderr)")
        #expect(file.stdout.isEmpty)
        let option = try run.run(quick + ["--no-config", "--plugin", "json:pth=/tmp/x", song])
        #expect(option.status == 64, "\(option.stderr)")
        #expect(option.stderr.contains("unknown option 'pth'; did you mean 'path'?"), "\(option.stderr)")
        #expect(option.stdout.isEmpty)
    }

    @Test func theSamePluginsFromTheConfigFileAreWarningsAndPlaybackGoesOn() throws {
        let run = try MotetRun()
        let song = try track(run)
        try FileManager.default.createDirectory(atPath: run.home + "/config/motet", withIntermediateDirectories: true)
        try "plugin = jsn\n[plugin json]\npth = /tmp/x\n".write(
            toFile: run.home + "/config/motet/motet.conf", atomically: true, encoding: .utf8)
        let r = try run.run(quick + [song])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("motet: plugin jsn: not found"), "\(r.stderr)")
        #expect(r.stderr.contains("unknown option 'pth'"), "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Song (ok, completed)"), "\(r.stdout)")
    }

    /// The line that cites the config file points at the key the plugin refused, not at its
    /// section's header several lines above.
    @Test func aRefusedOptionInAConfigSectionCitesTheKeysLine() throws {
        let run = try MotetRun()
        let song = try track(run)
        let conf = run.home + "/config/motet/motet.conf"
        try FileManager.default.createDirectory(atPath: run.home + "/config/motet", withIntermediateDirectories: true)
        try "[plugin json]\n# the state file\npath = \(run.path("state.json"))\ninterval = soon\n[plugin log]\n\nlevel = debug\npth = /tmp/x\n".write(
            toFile: conf, atomically: true, encoding: .utf8)
        let r = try run.run(quick + [song])
        #expect(r.status == 0, "\(r.stderr)")
        let json = r.stderr.split(separator: "\n").first { $0.hasPrefix("motet: plugin json:") } ?? ""
        #expect(json.contains("'soon'") && json.hasSuffix("(from \(conf):4)"), "\(r.stderr)")
        let log = r.stderr.split(separator: "\n").first { $0.hasPrefix("motet: plugin log:") } ?? ""
        #expect(log.contains("unknown option 'pth'") && log.hasSuffix("(from \(conf):8)"), "\(r.stderr)")
    }
}

/// `--list-plugins --plugin PATH` looks at that file too, not only at the search path.
@Suite struct ListPluginsPathTests {
    @Test func listPluginsWithAPluginPathListsThatFile() throws {
        let run = try MotetRun()
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let dir = run.path("elsewhere")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let probe = try ProbePlugin.build(in: dir, fileName: "scrobbler.so", defines: ["PROBE_DESCRIBED_OPTIONS"])
        let broken = dir + "/broken.so"
        try "not a shared object".write(toFile: broken, atomically: true, encoding: .utf8)
        let r = try run.run(["--no-config", "--list-plugins", "--plugin", probe, "--plugin", broken])
        #expect(r.status == 1, "broken.so cannot load: \(r.stderr)")
        let named = try #require(r.stdout.components(separatedBy: "\nNamed with --plugin:\n").last, "\(r.stdout)")
        #expect(r.stdout.contains("\nNamed with --plugin:\n"), "\(r.stdout)")
        #expect(named.contains("  scrobbler  ") && named.contains("      \(probe)\n"), "\(r.stdout)")
        #expect(named.contains("      sleep_ms=integer (default: 0)"), "\(r.stdout)")
        #expect(named.contains("  broken  cannot load: \(broken): "), "\(r.stdout)")
    }
}

/// The trust rule's refusal names each problem once, however the path was typed.
@Suite struct PluginTrustLineTests {
    @Test func aRelativePathIntoAWorldWritableDirectoryNamesThatDirectoryOnce() throws {
        let run = try MotetRun()
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let song = run.path("song.ogg")
        try Fixtures.oggVorbis(song, seconds: 0.2, tags: .init(title: "Song"))
        let ww = run.path("ww")
        try FileManager.default.createDirectory(atPath: ww, withIntermediateDirectories: true)
        try ProbePlugin.build(in: ww, fileName: "x.so")
        #expect(chmod(ww, 0o777) == 0)
        let r = try Shell.run(
            [Paths.motet, "--no-config", "--output", "null", "--untimed", "--plugin", "./ww/x.so", song],
            environment: run.environment, currentDirectory: run.home)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr == "motet: plugin x: \(ww)/x.so: refused: directory \(ww) is writable by group and others (mode 0777);"
            + " fix with: chmod go-w \(ww) (or allow it with allow-unsafe-plugins = yes / --allow-unsafe-plugins) (from --plugin)\n")
    }
}

/// A plugin file in /tmp (world-writable, sticky) is refused with advice to move it.
@Suite struct PluginInTmpTests {
    @Test func aPluginInTmpIsRefusedWithAdviceToMoveIt() throws {
        let run = try MotetRun()
        let song = run.path("song.ogg")
        try Fixtures.oggVorbis(song, seconds: 0.2, tags: .init(title: "Song"))
        let name = "motet-tmp-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).so"
        let file = try ProbePlugin.build(in: "/tmp", fileName: name)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let r = try run.run(["--no-config", "--output", "null", "--untimed", "--plugin", file + ":out=" + run.path("p.out"), song])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("refused: directory /tmp lets anyone add files (mode 1777): keep plugins out of it"), "\(r.stderr)")
        #expect(r.stderr.contains("mv \(file) ~/.local/share/motet/plugins/"), "\(r.stderr)")
        #expect(!r.stderr.contains("chmod go-w /tmp"), "\(r.stderr)")
    }
}
