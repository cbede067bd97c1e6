import Foundation
import MotetEvents
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
        let gaveUp = harness.host.shutdown(timeoutSeconds: 10, stallSeconds: 1)
        let waited = monotonicMicros() - start
        #expect(gaveUp == ["stuck"])
        #expect(waited >= 900_000 && waited < 3_000_000, "waited \(waited) us")
        #expect(harness.log.contains("motet: gave up waiting for plugin stuck (\(file)) at exit: it took no event for 1 s"), "\(harness.log)")
        #expect(Array(ProbePlugin.lines(harness.output("tidy")).suffix(3)) == [
            "state state=2 volume=1 shuffle=0 loop=1 seek=1 remote=1", "shutdown", "destroy",
        ])
        #expect(ProbePlugin.lines(harness.output("stuck")).last == "shutdown")
        // Nothing is delivered after shutdown, and a second shutdown has nothing left to wait for.
        harness.host.publish(SampleEvents.state(volume: 2))
        #expect(harness.host.shutdown(timeoutSeconds: 1) == [])
    }
}
