import Foundation
import MotetEvents
import MotetPluginHost
import MotetTestSupport
import Testing

/// A slow or stuck plugin delays only itself, and what waits for it stays bounded.
@Suite struct QueueTests {
    @Test func aPluginThatSleepsInEveryCallDelaysNeitherPublishNorAnotherPlugin() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        #expect(harness.load([
            harness.probeRequest("probe", instance: "slow", options: [("sleep_ms", "400")]),
            harness.probeRequest("probe", instance: "fast"),
        ]) == 2)
        let start = monotonicMicros()
        for volume in 1...5 { harness.host.publish(SampleEvents.state(volume: volume)) }
        let publishMicros = monotonicMicros() - start
        #expect(publishMicros < 100_000, "publish took \(publishMicros) us")

        #expect(try ProbePlugin.waitForLine(harness.output("fast")) { $0.contains("volume=5") })
        #expect(try ProbePlugin.waitForLine(harness.output("slow"), timeout: 15) { $0.contains("volume=5") })
        let fast = ProbePlugin.entries(harness.output("fast")).filter { $0.text.hasPrefix("state") }
        let slow = ProbePlugin.entries(harness.output("slow")).filter { $0.text.hasPrefix("state") }
        #expect(fast.count == 5 && slow.count == 5)
        // The fast plugin had everything long before the slow one got its second event.
        #expect(fast.last!.micros < slow[1].micros)
        #expect(fast.last!.micros - start < 350_000, "fast plugin done after \(fast.last!.micros - start) us")
        #expect(slow.last!.micros - start >= 5 * 400_000)
    }

    @Test func nowPlayingForAStuckPluginCoalescesSoTheLatestWins() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let gate = harness.directory + "/gate"
        harness.load([harness.probeRequest("probe", options: [("gate", gate)])])
        harness.host.publish(SampleEvents.track("first"))
        usleep(100_000)  // the probe is now stuck inside its first on_event
        let start = monotonicMicros()
        for n in 1...20_000 { harness.host.publish(SampleEvents.track("t\(n)", trackID: UInt64(n))) }
        #expect(monotonicMicros() - start < 5_000_000)
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(harness.host.shutdown(timeoutSeconds: 10) == [])
        let titles = ProbePlugin.lines(harness.output("probe")).filter { $0.hasPrefix("np ") }.map {
            $0.split(separator: " ").first { $0.hasPrefix("title=") }!.dropFirst(6)
        }
        #expect(titles == ["first", "t20000"])
    }

    @Test func otherEventsStayInOrderAndBoundedDroppingSupersededStatesFirst() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let gate = harness.directory + "/gate"
        harness.load([harness.probeRequest("probe", options: [("gate", gate)])])
        harness.host.publish(.interruptionBegan(.corked))
        usleep(100_000)
        for n in 0..<1000 {
            harness.host.publish(SampleEvents.state(volume: n % 100))
            if n == 500 {
                harness.host.publish(.trackFinished(TrackFinished(trackID: 1, filePath: nil, title: "kept", successfully: true, reason: .completed)))
            }
        }
        harness.host.publish(.interruptionEnded(.corked))
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(harness.host.shutdown(timeoutSeconds: 10) == [])
        let lines = ProbePlugin.lines(harness.output("probe")).filter { !$0.hasPrefix("create") && !$0.hasPrefix("option") }
        #expect(lines.count <= 256 + 4)  // + the finished's track line, shutdown, destroy
        #expect(lines.first == "interruption-began reason=0")
        #expect(lines.contains("finished ok=1 reason=0 track=1 file=(null) title=kept"))
        #expect(Array(lines.suffix(4)) == [
            "state state=2 volume=99 shuffle=0 loop=1 seek=1 remote=1", "interruption-ended reason=0", "shutdown", "destroy",
        ])
        #expect(harness.log.contains { $0.hasPrefix("motet: plugin probe is not keeping up: dropped ") })
    }
}
