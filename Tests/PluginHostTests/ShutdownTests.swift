import Foundation
import MotetEvents
import MotetSystem
import MotetPluginHost
import MotetTestSupport
import Testing

/// Shutdown is bounded: it gives up on a plugin that takes no event for the stall time (and on
/// any after the total), and names the ones it gave up on.
@Suite struct ShutdownTests {
    @Test func shutdownGivesUpOnAPluginStuckForeverWithinTheBoundAndNamesIt() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory)
        #expect(harness.load([
            harness.probeRequest("probe", instance: "stuck", options: [("hang_on_shutdown", "yes")]),
            harness.probeRequest("probe", instance: "tidy"),
        ]) == 2)
        harness.host.publish(SampleEvents.state(volume: 1))
        let start = monotonicMicros()
        let gaveUp = harness.host.shutdown(timeout: .seconds(10), stall: .seconds(1))
        let waited = monotonicMicros() - start
        #expect(gaveUp == ["stuck"])
        #expect(waited >= 900_000 && waited < 3_000_000, "waited \(waited) us")
        #expect(harness.log.contains(
            "motet: gave up waiting for plugin stuck (\(file)) at exit: it took no event for 1 s; every track's events had reached it"),
            "\(harness.log)")
        #expect(Array(ProbePlugin.lines(harness.output("tidy")).suffix(3)) == [
            "state state=2 volume=1 shuffle=0 loop=1 seek=1 remote=1", "shutdown", "destroy",
        ])
        #expect(ProbePlugin.lines(harness.output("stuck")).last == "shutdown")
        // Nothing is delivered after shutdown, and a second shutdown has nothing left to wait for.
        harness.host.publish(SampleEvents.state(volume: 2))
        #expect(harness.host.shutdown(timeout: .seconds(1)) == [])
    }

    /// A slow plugin (a scrobbler posting each event) still has tracks queued when the wait ends:
    /// the line says how many tracks' events it never got.
    @Test func givingUpOnASlowPluginCountsTheTracksWhoseEventsItDidNotGet() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory)
        // Held in its first event until the gate exists: as slow as can be, and deterministic.
        let gate = harness.directory + "/gate"
        #expect(harness.load([harness.probeRequest("probe", instance: "slow", options: [("gate", gate)])]) == 1)
        for track in UInt64(1)...10 {
            harness.host.publish(SampleEvents.track("Song \(track)", trackID: track))
            harness.host.publish(.trackFinished(TrackFinished(
                trackID: track, filePath: nil, title: nil, successfully: true, reason: .completed)))
        }
        #expect(harness.host.shutdown(timeout: .seconds(10), stall: .seconds(1)) == ["slow"])
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        // It is inside track 1's now-playing; track 1's finish and tracks 2 to 10 never reach it.
        #expect(harness.log.contains(
            "motet: gave up waiting for plugin slow (\(file)) at exit: it took no event for 1 s; it did not get the events of 10 tracks"),
            "\(harness.log)")
    }
}
