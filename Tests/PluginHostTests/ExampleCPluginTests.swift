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
        #expect(harness.host.shutdown(timeoutSeconds: 5) == [])
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("hello[hello]: now playing: title=Example Song artist=Ada, Bo album=The Album rate=1.0 liked=no"))
        #expect(text.contains("hello[hello]: sent like: accepted"))
        #expect(text.hasSuffix("hello[hello]: shutting down\n"))
        #expect(harness.commands.map(\.0) == [.like])
    }
}
