import Foundation
import MotetEvents
import MotetPluginHost
import MotetTestSupport
import Testing

/// `Examples/c-plugin` against the host directly (the installed-binary version of this is in
/// IntegrationTests): it prints what it receives and sends `like` once per track.
@Suite struct ExampleCPluginTests {
    @Test func theExamplePrintsTheTrackAndLikesItOnce() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(
            in: harness.directory, fileName: "hello.so", source: Paths.packageRoot + "/Examples/c-plugin/plugin.c")
        let out = harness.directory + "/hello.log"
        #expect(harness.load([
            PluginRequest(
                name: "hello",
                options: [PluginOption(key: "like", value: "yes"), PluginOption(key: "out", value: out)])
        ]) == 1)
        let track = SampleEvents.track("Example Song", trackID: 5)
        guard case .nowPlaying(var now) = track else { return }
        now.liked = false
        harness.host.publish(.nowPlaying(now))
        #expect(try Shell.waitUntil { harness.commands.count == 1 })
        now.liked = true  // what the player publishes once the like took effect
        harness.host.publish(.nowPlaying(now))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("hello[hello]: now playing: title=Example Song artist=Ada, Bo album=The Album rate=1.0 liked=no"))
        #expect(text.contains("hello[hello]: sent like: accepted"))
        #expect(text.hasSuffix("hello[hello]: shutting down\n"))
        #expect(harness.commands.map(\.0) == [.like])
    }

    /// The Makefile's documented `make PKG_CONFIG_PATH=DIR`, with DIR only on make's command line
    /// (not in the environment): GNU make 4.3 does not hand it to `$(shell pkg-config …)` by itself.
    @Test func theExampleBuildsWithPkgConfigPathOnMakesCommandLine() throws {
        let scratch = try Paths.temporaryDirectory("motet-example-make")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let prefix = scratch + "/prefix"
        let install = try Shell.run(["make", "-s", "-C", Paths.packageRoot, "install-dev", "PREFIX=\(prefix)"])
        try #require(install.status == 0, "make install-dev: \(install.stdout)\(install.stderr)")
        let checkout = scratch + "/c-plugin"
        try FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
        for file in ["plugin.c", "Makefile"] {
            try FileManager.default.copyItem(atPath: Paths.packageRoot + "/Examples/c-plugin/" + file, toPath: checkout + "/" + file)
        }
        let build = try Shell.run(
            ["env", "-u", "PKG_CONFIG_PATH", "make", "-C", checkout, "PKG_CONFIG_PATH=\(prefix)/share/pkgconfig"])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("-I\(prefix)/include"), "not built against the installed header: \(build.stdout)")
        #expect(FileManager.default.fileExists(atPath: checkout + "/hello.so"))
    }
}
