import Foundation
import MotetTestSupport
import Testing

/// The third-party path end to end: `make install`, build `Examples/c-plugin` with its Makefile
/// against the installed header through pkg-config, and load it into the installed `motet`.
@Suite(.serialized) struct InstalledCPluginTests {
    /// Installs the build under test into a fresh prefix with the Makefile's own `install` target.
    private func install() throws -> String {
        let prefix = try Paths.temporaryDirectory("motet-prefix")
        let make = try Shell.run(
            ["make", "-s", "-C", Paths.packageRoot, "install", "PREFIX=\(prefix)", "BIN=\(Paths.buildDirectory)"])
        guard make.status == 0 else { throw TestError.failed("make install failed: \(make.stdout)\(make.stderr)") }
        return prefix
    }

    @Test func makeInstallLaysOutTheBinaryPluginsHeaderAndPkgConfigFile() throws {
        let prefix = try install()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        for file in [
            "bin/motet", "lib/motet/plugins/log.so", "lib/motet/plugins/json.so", "lib/motet/plugins/notify.so",
            "lib/motet/plugins/mpris.so", "include/motet/plugin.h", "share/pkgconfig/motet-plugin.pc",
            "share/doc/motet/PLUGINS.md", "share/doc/motet-plugin-dev/examples/c-plugin/plugin.c",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "missing \(file)")
        }
        let flags = try Shell.check(
            ["pkg-config", "--cflags", "motet-plugin"], environment: ["PKG_CONFIG_PATH": prefix + "/share/pkgconfig"])
        #expect(flags.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "-I\(prefix)/include")
        let dir = try Shell.check(
            ["pkg-config", "--variable=plugindir", "motet-plugin"], environment: ["PKG_CONFIG_PATH": prefix + "/share/pkgconfig"])
        #expect(dir.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(prefix)/lib/motet/plugins")
    }

    @Test func theExampleBuiltAgainstTheInstalledHeaderPrintsTheTrackAndItsLikeTakesEffect() throws {
        let prefix = try install()
        let run = try MotetRun("motet-installed")
        defer {
            try? FileManager.default.removeItem(atPath: prefix)
            try? FileManager.default.removeItem(atPath: run.home)
        }
        // A third party's checkout of the example, built with its own Makefile.
        let checkout = run.path("c-plugin")
        try FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
        for file in ["plugin.c", "Makefile"] {
            try FileManager.default.copyItem(
                atPath: Paths.packageRoot + "/Examples/c-plugin/" + file, toPath: checkout + "/" + file)
        }
        let build = try Shell.run(
            ["make", "-C", checkout], environment: ["PKG_CONFIG_PATH": prefix + "/share/pkgconfig"])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("-I\(prefix)/include"), "not built against the installed header: \(build.stdout)")
        let plugin = checkout + "/hello.so"
        let symbols = try Shell.check(["nm", "-D", "--defined-only", plugin]).stdout
        #expect(symbols.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" } == ["motet_plugin_entry"])

        let song = run.path("song.ogg")
        try Fixtures.oggVorbis(song, seconds: 2, tags: .init(title: "Installed Title", artists: ["Third Party"], album: "Example"))
        let log = run.path("hello.log")
        let result = try Shell.run(
            // Real time: untimed, the 2 s track can end before the like sent at its start is
            // handled, and a like with nothing playing has nothing to act on.
            [prefix + "/bin/motet", "--no-config", "--output", "null",
             "--plugin", "\(plugin):like=yes,out=\(log)", song],
            environment: run.environment, timeout: 60)
        #expect(result.status == 0, "motet failed: \(result.stderr)")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("hello[hello]: created by motet"), "plugin output:\n\(text)\nmotet stderr:\n\(result.stderr)")
        #expect(text.contains("now playing: title=Installed Title artist=Third Party album=Example"))
        #expect(text.contains("sent like: accepted"))
        // The like took effect: the player published the track again with like-active set.
        // (Any rate: a slow machine or a sanitizer build may be stalled at that moment.)
        let liked = text.split(separator: "\n").contains {
            $0.contains("now playing: title=Installed Title") && $0.hasSuffix("liked=yes")
        }
        #expect(liked, "the like never showed up:\n\(text)")
        #expect(text.contains("nothing playing"))
        #expect(text.hasSuffix("hello[hello]: shutting down\n"))
    }

    @Test func theInstalledPlayerListsTheInstalledPlugins() throws {
        let prefix = try install()
        let run = try MotetRun("motet-installed")
        defer {
            try? FileManager.default.removeItem(atPath: prefix)
            try? FileManager.default.removeItem(atPath: run.home)
        }
        let result = try Shell.run([prefix + "/bin/motet", "--no-config", "--list-plugins"], environment: run.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(prefix)/lib/motet/plugins  (installed with motet)"))
        #expect(result.stdout.contains("\(prefix)/lib/motet/plugins/log.so"))
        #expect(result.stdout.contains("  log  "))
    }
}
