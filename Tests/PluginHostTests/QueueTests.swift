import Foundation
import MotetEvents
import MotetSystem
@testable import MotetPluginHost
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
        // Track events: none of them coalesces.
        for track in 1...5 {
            harness.host.publish(.trackFinished(TrackFinished(trackID: UInt64(track), filePath: nil, title: nil, successfully: true, reason: .completed)))
        }
        let publishMicros = monotonicMicros() - start
        #expect(publishMicros < 100_000, "publish took \(publishMicros) us")

        #expect(try ProbePlugin.waitForLine(harness.output("fast")) { $0.contains("track=5") })
        #expect(try ProbePlugin.waitForLine(harness.output("slow"), timeout: 15) { $0.contains("track=5") })
        let fast = ProbePlugin.entries(harness.output("fast")).filter { $0.text.hasPrefix("finished ") }
        let slow = ProbePlugin.entries(harness.output("slow")).filter { $0.text.hasPrefix("finished ") }
        #expect(fast.count == 5 && slow.count == 5)
        // The fast plugin had everything long before the slow one got its second event.
        #expect(fast.last!.micros < slow[1].micros)
        #expect(fast.last!.micros - start < 350_000, "fast plugin done after \(fast.last!.micros - start) us")
        #expect(slow.last!.micros - start >= 5 * 400_000)
    }

    /// A probe stuck inside its first event (a now-playing of track 1, "first") while `publish`
    /// runs, then released and shut down. Returns the harness (clean it up) and how long
    /// `publish` took, in microseconds.
    private func whileStuck(abi1_0: Bool = false, _ publish: (PluginHost) -> Void) throws -> (HostHarness, Int64) {
        let harness = try HostHarness()
        try ProbePlugin.build(in: harness.directory, abi1_0: abi1_0)
        let gate = harness.directory + "/gate"
        harness.load([harness.probeRequest("probe", options: [("gate", gate)])])
        harness.host.publish(SampleEvents.track("first", trackID: 1))
        usleep(100_000)  // the probe is now stuck inside its first on_event
        let start = Self.threadCPUMicros()
        publish(harness.host)
        let took = Self.threadCPUMicros() - start
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(harness.host.shutdown(timeout: .seconds(10)) == [])
        return (harness, took)
    }

    /// 20,000 events published to a stuck plugin take at most this much of the publishing thread's
    /// CPU time (the queue's work per event is bounded; a host that waited for the stuck plugin
    /// would never return): 5 s, or 60 s under a sanitizer, which makes everything several times
    /// slower. CPU time, not wall time: on a loaded machine the thread waits for a core, and the
    /// wall time went past 5 s (5.16 s) with other builds running.
    static let publishBound: Int64 =
        ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil ? 5_000_000 : 60_000_000

    /// The calling thread's CPU time, in microseconds.
    private static func threadCPUMicros() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    @Test func nowPlayingOfOneTrackForAStuckPluginCoalescesSoTheLatestWins() throws {
        let (harness, took) = try whileStuck { host in
            for n in 1...20_000 { host.publish(SampleEvents.track("t\(n)", trackID: 2)) }
        }
        defer { harness.cleanUp() }
        #expect(took < Self.publishBound, "publishing took \(took) µs")
        #expect(Self.titles(harness.output("probe")) == ["first", "t20000"])
    }

    @Test func aStuckPluginKeepsTheNewest256TracksAndIsToldHowManyWereLost() throws {
        let (harness, took) = try whileStuck { host in
            for n in 2...20_000 { host.publish(SampleEvents.track("t\(n)", trackID: UInt64(n))) }
        }
        defer { harness.cleanUp() }
        #expect(took < Self.publishBound, "publishing took \(took) µs")
        let lines = ProbePlugin.lines(harness.output("probe"))
        #expect(lines.filter { $0.hasPrefix("lost ") } == ["lost count=\(19_999 - 256)"])
        #expect(Self.titles(harness.output("probe")) == ["first"] + (19_745...20_000).map { "t\($0)" })
        #expect(harness.log.filter { $0.contains("is not keeping up") } == [
            "motet: plugin probe is not keeping up: dropped the events of \(19_999 - 256) tracks"
                + " (at most 256 tracks wait; further drops are not logged)"
        ])
    }

    @Test func anABI10PluginThatFallsBehindGetsTheLogLineAndNoUnknownEvent() throws {
        let (harness, _) = try whileStuck(abi1_0: true) { host in
            for n in 2...300 { host.publish(SampleEvents.track("t\(n)", trackID: UInt64(n))) }
        }
        defer { harness.cleanUp() }
        let lines = ProbePlugin.lines(harness.output("probe"))
        #expect(!lines.contains { $0.hasPrefix("unknown-event") })
        #expect(Self.titles(harness.output("probe")).count == 1 + 256)
        #expect(harness.log.contains { $0.contains("dropped the events of 43 tracks") })
    }

    private static func titles(_ path: String) -> [Substring] {
        ProbePlugin.lines(path).filter { $0.hasPrefix("np ") }.map {
            $0.split(separator: " ").first { $0.hasPrefix("title=") }!.dropFirst(6)
        }
    }

    @Test func playbackStatesCoalesceAndOtherEventsKeepTheirOrder() throws {
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
        #expect(harness.host.shutdown(timeout: .seconds(10)) == [])
        let lines = ProbePlugin.lines(harness.output("probe")).filter { !$0.hasPrefix("create") && !$0.hasPrefix("option") }
        #expect(lines.map { $0.prefix(while: { $0 != " " }) } == [
            "interruption-began", "finished", "finished-track", "state", "interruption-ended", "shutdown", "destroy",
        ])
        #expect(lines.contains("state state=2 volume=99 shuffle=0 loop=1 seek=1 remote=1"))
        #expect(lines.contains("finished ok=1 reason=0 track=1 file=(null) title=kept"))
    }
}

/// The queue's rules on their own (`PluginEventQueue`), as the header states them.
@Suite struct QueueRuleTests {
    private func finished(_ track: UInt64) -> QueuedEvent {
        .player(.trackFinished(TrackFinished(trackID: track, filePath: nil, title: nil, successfully: true, reason: .completed)))
    }

    private func started(_ track: UInt64) -> QueuedEvent {
        .player(.trackStarted(TrackStarted(
            track: TrackRecord(trackID: track, title: nil, artists: [], album: nil, durationMicros: nil, filePath: nil),
            reason: .natural, startedAtUnixMicros: 0)))
    }

    private func drain(_ queue: inout PluginEventQueue) -> [QueuedEventKind] {
        var kinds: [QueuedEventKind] = []
        while let e = queue.pop() {
            if case .tracksLost(let n) = e { kinds.append(.track(UInt64.max - UInt64(n))) } else { kinds.append(e.kind) }
        }
        return kinds
    }

    @Test func trackEventsNeverCoalesce() {
        var queue = PluginEventQueue()
        for _ in 0..<3 {
            queue.push(started(7))
            queue.push(finished(7))
        }
        #expect(drain(&queue) == Array(repeating: QueuedEventKind.track(7), count: 6))
    }

    @Test func aNowPlayingIsReplacedOnlyByOneOfTheSameTrack() {
        var queue = PluginEventQueue()
        queue.push(.player(SampleEvents.track("a", trackID: 1)))
        queue.push(.player(SampleEvents.track("b", trackID: 2)))
        queue.push(.player(SampleEvents.track("b2", trackID: 2)))
        queue.push(.player(.nowPlaying(.nothing(at: 0))))
        var titles: [String?] = []
        while let e = queue.pop() {
            if case .player(.nowPlaying(let now)) = e { titles.append(now.track?.title) }
        }
        #expect(titles == ["a", "b2", nil])
    }

    @Test func pastTheTrackBoundTheOldestTracksAreDroppedAndCountedOnce() {
        var queue = PluginEventQueue()
        for t in 1...UInt64(PluginEventQueue.trackCapacity + 5) {
            queue.push(started(t))
            queue.push(finished(t))
        }
        let kinds = drain(&queue)
        #expect(kinds.first == .track(UInt64.max - 5))  // TRACKS_LOST(5) first
        #expect(kinds.count == 1 + 2 * PluginEventQueue.trackCapacity)
        #expect(kinds[1] == .track(6) && kinds.last == .track(UInt64(PluginEventQueue.trackCapacity + 5)))
    }

    @Test func otherEventsAreBoundedDroppingTheOldest() {
        var queue = PluginEventQueue()
        for _ in 0..<(PluginEventQueue.otherCapacity + 10) { queue.push(.player(.interruptionBegan(.corked))) }
        queue.push(started(1))
        #expect(queue.count == PluginEventQueue.otherCapacity + 1)
        #expect(queue.takeDroppedOthers() == 10)
        #expect(queue.takeDroppedOthers() == 0)
    }
}
