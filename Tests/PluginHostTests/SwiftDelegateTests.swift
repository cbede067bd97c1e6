import Foundation
import MotetEvents
import MotetSystem
import MotetPluginHost
import MotetTestSupport
import Testing

/// A Swift delegate written with MotetPluginKit (the bundled `log`) goes through the same loader,
/// queue and C structs as a C plugin, twice in one process.
@Suite struct SwiftDelegateTests {
    @Test func twoInstancesOfAKitDelegateLoadReceiveEventsAndShutDown() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let first = harness.directory + "/first.log"
        let second = harness.directory + "/second.log"
        let path = PluginSearchPath(
            pluginDirectories: [], environment: [:], executablePath: Paths.buildDirectory + "/motet")
        let running = harness.host.load([
            PluginRequest(name: "log", options: [PluginOption(key: "path", value: first)], instanceName: "log"),
            PluginRequest(name: "log", options: [PluginOption(key: "path", value: second)], instanceName: "log#2"),
        ], searchPath: path)
        #expect(running == 2, "\(harness.log)")
        harness.host.publish(SampleEvents.track("Kit Song"))
        // Waits, or the "nothing playing" below would replace the track while it is still queued.
        #expect(try Shell.waitUntil {
            [first, second].allSatisfy { ((try? String(contentsOfFile: $0, encoding: .utf8)) ?? "").contains("Kit Song") }
        })
        harness.host.publish(.nowPlaying(.nothing(at: monotonicMicros())))
        #expect(harness.host.shutdown(timeout: .seconds(10)) == [])
        for file in [first, second] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            #expect(text.contains("Kit Song"), "\(file): \(text)")
            #expect(text.contains("nothing-playing"), "\(file): \(text)")
        }
    }
}
