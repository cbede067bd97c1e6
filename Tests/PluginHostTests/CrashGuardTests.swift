import Foundation
import MotetEvents
import MotetPluginHost
import MotetTestSupport
import Testing

/// A plugin that crashes (a NULL write, a Swift-style trap, a stack overflow) in create, in an
/// event or in destroy is reported in one line naming it, the call and the signal; it gets no
/// more calls; the other plugins and this very process go on.
@Suite struct CrashGuardTests {
    private func finished(_ id: UInt64) -> PlayerEvent {
        .trackFinished(TrackFinished(trackID: id, filePath: "/music/a.ogg", title: "A", successfully: true, reason: .completed))
    }

    /// The lines of the log about the instance `name`.
    private func lines(_ harness: HostHarness, _ name: String) -> [String] {
        harness.log.filter { $0.contains("plugin \(name) ") || $0.hasPrefix("motet: plugin \(name):") }
    }

    @Test(arguments: [("segv", "SIGSEGV"), ("trap", "SIGILL"), ("stack", "SIGSEGV")])
    func aCrashInCreateIsOneLineAndTheOtherPluginsWork(kind: String, signal: String) throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let running = harness.load([
            harness.probeRequest("probe", instance: "crasher", options: [("crash", "create"), ("crash_kind", kind)]),
            harness.probeRequest("probe", instance: "good"),
        ])
        #expect(running == 1)
        let about = lines(harness, "crasher")
        #expect(about.count == 1, "\(harness.log)")
        let line = try #require(about.first)
        #expect(line.hasPrefix("motet: plugin crasher: \(harness.directory)/probe.so: crashed in create with \(signal)"))
        #expect(line.contains("it is not used"))
        harness.host.publish(SampleEvents.state(volume: 41))
        #expect(try ProbePlugin.waitForLine(harness.output("good")) { $0.contains("volume=41") })
    }

    @Test func aCrashInAnEventSwitchesThePluginOffAndEveryoneElseGoesOn() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let running = harness.load([
            harness.probeRequest("probe", instance: "crasher", options: [("crash", "finished")]),
            harness.probeRequest("probe", instance: "good"),
        ])
        #expect(running == 2)
        harness.host.publish(finished(7))
        // The crasher got the event (it wrote it down) and crashed right after.
        #expect(try ProbePlugin.waitForLine(harness.output("crasher")) { $0.hasPrefix("finished") && $0.contains("track=7") })
        #expect(try ProbePlugin.waitForLine(harness.output("good")) { $0.contains("track=7") })
        // The next events: the crash is reported once, the crasher gets nothing more.
        let reported = try Shell.waitUntil(timeout: 10) {
            harness.host.publish(SampleEvents.state(volume: 52))
            return !lines(harness, "crasher").isEmpty
        }
        #expect(reported)
        harness.host.publish(finished(8))
        #expect(try ProbePlugin.waitForLine(harness.output("good")) { $0.contains("track=8") })
        let about = lines(harness, "crasher")
        #expect(about == [
            "motet: plugin crasher (\(harness.directory)/probe.so) crashed in on_event (track-finished) with "
                + "SIGSEGV (segmentation fault); it gets no more events and playback goes on without it"
                + " (report it to the plugin's author)",
        ])
        #expect(!ProbePlugin.lines(harness.output("crasher")).contains { $0.contains("volume=52") || $0.contains("track=8") })
        // Shutdown does not wait for the dead instance, and the good one is destroyed as usual.
        let started = Stopwatch()
        _ = harness.host.shutdown(timeout: .seconds(5))
        #expect(started.seconds < 2)
        #expect(ProbePlugin.lines(harness.output("good")).suffix(2) == ["shutdown", "destroy"])
        #expect(lines(harness, "crasher").count == 1)
    }

    @Test func aCrashInDestroyIsReportedAndShutdownCompletes() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let running = harness.load([
            harness.probeRequest("probe", instance: "crasher", options: [("crash", "destroy")]),
            harness.probeRequest("probe", instance: "good"),
        ])
        #expect(running == 2)
        let started = Stopwatch()
        _ = harness.host.shutdown(timeout: .seconds(5))
        #expect(started.seconds < 2)
        #expect(ProbePlugin.lines(harness.output("crasher")).suffix(2) == ["shutdown", "destroy"])
        #expect(ProbePlugin.lines(harness.output("good")).suffix(2) == ["shutdown", "destroy"])
        let about = lines(harness, "crasher")
        #expect(about.count == 1, "\(harness.log)")
        #expect(about.first?.contains("crashed in destroy with SIGSEGV") == true)
    }
}
