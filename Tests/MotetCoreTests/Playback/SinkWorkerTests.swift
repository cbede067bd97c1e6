import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Testing

@testable import MotetPlayback
import MotetSystem

/// A sink worker on a scripted device, fed by the test as the decoder would feed it.
final class WorkerRig {
    let ring = SampleRing(minimumCapacity: 1 << 14)
    let markers = SPSCQueue<SegmentMarker>(capacity: 64)
    let device = ScriptedOutput()
    let wake = Wakeup()
    let worker: SinkWorker
    /// Every event taken so far.
    private(set) var events: [OutputEvent] = []
    private var lastSegment: UInt64 = 0

    init() {
        worker = SinkWorker(ring: ring, markers: markers, device: device, spaceReady: CountingSemaphore(), wake: wake)
    }

    /// Starts a stereo segment of `frames` frames at `rate`, its samples in the ring; returns its id.
    @discardableResult
    func segment(frames: Int, rate: Int = 44100) -> UInt64 {
        lastSegment += 1
        markers.push(
            SegmentMarker(
                sampleIndex: ring.writeIndex, segmentID: lastSegment, sampleRate: rate, channels: 2, gain: 1, isEnd: false))
        more(frames: frames)
        return lastSegment
    }

    /// `frames` more frames of the current segment.
    func more(frames: Int) {
        let samples = [Float](repeating: 0.25, count: frames * 2)
        let n = samples.withUnsafeBufferPointer { ring.write($0.baseAddress!, count: $0.count) }
        precondition(n == samples.count, "the test ring is full")
        worker.dataReady.post()
    }

    /// The end of the queue.
    func end() {
        markers.push(SegmentMarker(sampleIndex: ring.writeIndex, segmentID: 0, sampleRate: 0, channels: 0, gain: 1, isEnd: true))
        worker.dataReady.post()
    }

    /// Takes events until `condition` holds for all taken so far (at most `timeout` seconds).
    func collect(timeout: Double = 5, until condition: ([OutputEvent]) -> Bool) -> Bool {
        let clock = Stopwatch()
        while clock.seconds < timeout {
            worker.takeEvents { events.append($0) }
            if condition(events) { return true }
            wake.wait(until: .now() + .milliseconds(20))
        }
        return false
    }

    func stop() {
        worker.stop()
        worker.join()
    }
}

@Suite struct SinkWorkerTests {
    @Test func segmentsAreWrittenInOrderAndTheEndComesAfterTheDrain() throws {
        let rig = WorkerRig()
        rig.device.allow(1_000_000)
        let a = rig.segment(frames: 1000)
        let b = rig.segment(frames: 500)
        let c = rig.segment(frames: 300, rate: 48000)
        rig.end()
        rig.worker.start()
        #expect(rig.collect { $0.contains(.ended) })
        rig.stop()
        #expect(
            rig.events == [
                .segmentWritten(SegmentBoundary(segmentID: a, epoch: 1, frame: 0)),
                .segmentWritten(SegmentBoundary(segmentID: b, epoch: 1, frame: 1000)),
                .segmentWritten(SegmentBoundary(segmentID: c, epoch: 2, frame: 0)),
                .ended,
            ])
        // Gapless within a format; drained before the format changes and at the end.
        let calls = rig.device.calls.filter { if case .write = $0 { false } else { true } }
        let cd = AudioFormat(sampleRate: 44100, channels: 2)
        #expect(calls == [.open(cd), .drain, .open(AudioFormat(sampleRate: 48000, channels: 2)), .drain, .close])
        #expect(rig.device.written == 1800)
        let heard = rig.worker.heard()
        #expect(heard.epoch == 2 && heard.frames == 300 && heard.framesPerSecond == 0)
    }

    @Test func pauseStopsWritesAndTheHeardClock() throws {
        let rig = WorkerRig()
        defer { rig.stop() }
        rig.segment(frames: 4000)
        rig.device.allow(1000)
        rig.device.setDelay(200)
        rig.worker.start()
        #expect(try Shell.waitUntil(timeout: 5) { rig.device.written == 1000 })
        // Heard: written minus the delay, advancing at the rate while the device plays.
        #expect(try Shell.waitUntil(timeout: 5) { rig.worker.heard().framesPerSecond == 44100 })
        #expect(rig.worker.heard().frames == 800)
        rig.worker.setPaused(true)
        #expect(try Shell.waitUntil(timeout: 5) { rig.device.isPaused })
        rig.device.allow(1000)
        usleep(150_000)
        #expect(rig.device.written == 1000, "nothing is written while paused")
        let paused = rig.worker.heard()
        #expect(paused.framesPerSecond == 0 && paused.frames == 800)
        #expect(paused.frames(at: .now() + .seconds(1)) == 800, "the heard clock stands still")
        rig.worker.setPaused(false)
        #expect(try Shell.waitUntil(timeout: 5) { rig.device.written == 2000 })
        #expect(rig.device.calls.filter { if case .setPaused = $0 { true } else { false } } == [.setPaused(true), .setPaused(false)])
    }

    @Test func deviceEventsKeepTheirOrderAmongTheWorkersOwn() throws {
        let rig = WorkerRig()
        defer { rig.stop() }
        rig.device.allow(1_000_000)
        rig.worker.start()
        rig.device.send(.corkRequested)
        rig.device.send(.uncorkRequested)
        rig.device.send(.corkRequested)
        let id = rig.segment(frames: 100)
        #expect(try Shell.waitUntil(timeout: 5) { rig.device.written == 100 })
        rig.device.send(.glitch)
        #expect(rig.collect { $0.count >= 5 })
        #expect(
            rig.events == [
                .notice(.corkRequested), .notice(.uncorkRequested), .notice(.corkRequested),
                .segmentWritten(SegmentBoundary(segmentID: id, epoch: 1, frame: 0)), .notice(.glitch),
            ])
        #expect(rig.worker.droppedDeviceEvents == 0)
    }

    @Test func aRingThatStaysDryIsStarvingOnceThenFed() throws {
        let rig = WorkerRig()
        defer { rig.stop() }
        rig.device.allow(1_000_000)
        rig.segment(frames: 100)
        rig.worker.start()
        #expect(rig.collect { $0.contains { if case .starving = $0 { true } else { false } } })
        usleep(300_000)
        rig.more(frames: 100)
        #expect(rig.collect { $0.contains(.fed) })
        let starving = rig.events.filter { if case .starving = $0 { true } else { false } }
        #expect(starving.count == 1)
        #expect(rig.events.last == .fed)
    }

    /// An empty ring in front of a device that still holds seconds is no stall (a live stream's
    /// decoder fills the ring a second at a time); the device about to run out, with the ring
    /// still empty, is.
    @Test func anEmptyRingInFrontOfADeviceThatHoldsSecondsIsNotStarving() throws {
        let rig = WorkerRig()
        defer { rig.stop() }
        rig.device.allow(1_000_000)
        rig.device.setDelay(6000)  // 1.5 s at 4 kHz: the device stands for one that keeps it
        rig.segment(frames: 6000, rate: 4000)
        rig.worker.start()
        #expect(try Shell.waitUntil(timeout: 5) { rig.device.written == 6000 })
        usleep(600_000)
        #expect(!rig.collect(timeout: 0.4) { $0.contains { if case .starving = $0 { true } else { false } } })
        rig.device.setDelay(100)  // the device is about to run out
        #expect(rig.collect(timeout: 5) { $0.contains { if case .starving = $0 { true } else { false } } })
    }

    @Test func aFlushStartsANewEpochAndResetsTheDevice() throws {
        let rig = WorkerRig()
        defer { rig.stop() }
        rig.device.allow(1_000_000)
        rig.segment(frames: 500)
        rig.worker.start()
        #expect(try Shell.waitUntil(timeout: 5) { rig.device.written == 500 })
        rig.worker.park()
        rig.ring.reset()
        rig.markers.reset()
        rig.worker.flushWhileParked()
        #expect(rig.worker.heard() == HeardNow(epoch: 2, frames: 0, framesPerSecond: 0, at: rig.worker.heard().at, limitFrames: 0))
        rig.worker.unpark()
        #expect(rig.device.calls.contains(.reset))
    }
}
