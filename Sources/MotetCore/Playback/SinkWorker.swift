#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetOutput
import Synchronization
import MotetSystem

/// The sink thread: moves samples from the ring to an `AudioOutput`, as mpv's
/// `audio/out/buffer.c` feeds its drivers. It owns what the devices no longer do: blocking (it
/// writes at most the device's free space, then waits on the device), pausing, the effect of
/// interruptions on writing, the heard position, draining at the end and format changes (the
/// device is reopened only when rate or channels change: gapless).
///
/// Threads: the sink thread allocates nothing after start, takes no lock that the UI or a plugin
/// can hold (only atomics, sem_post and a pipe write), and never calls a plugin. Each method's doc
/// comment names its thread on its first line (`/// Control thread.`, `/// Sink thread.`,
/// `/// Any thread.`), and the one-thread methods check it (`ThreadRole`).
final class SinkWorker: @unchecked Sendable {
    // Members without `private` are used by SinkWorker+Reports.swift (the same rules hold).
    // The `var`s below belong to the sink thread, and to the control thread while the sink thread
    // is parked (the gate's atomics order the two); everything shared is an atomic or a queue.
    let ring: SampleRing
    let markers: SPSCQueue<SegmentMarker>
    let device: any AudioOutput
    /// Posted by the decoder when it writes samples (and by the control thread to wake us).
    let dataReady = CountingSemaphore()
    /// Posted by us when we consume samples (the decoder waits on it when the ring is full).
    let spaceReady: CountingSemaphore
    let wake: Wakeup
    let gate = WorkerGate()
    let events = OutputEventQueues()
    let position = HeardPosition()
    private let pauseRequested = Atomic<Bool>(false)
    /// The requested pause waits for the next pause point in the ring (a fade-out is before it).
    private let pauseAtPoint = Atomic<Bool>(false)
    /// Volume (without ReplayGain) as Float bits.
    private let volumeBits = Atomic<UInt32>(Float(1).bitPattern)
    private var thread: PosixThread?

    var epoch = 0
    /// Frames written to the device in this epoch.
    var written: Int64 = 0
    var format: AudioFormat?
    /// The pause the device has been told about, or the one taken at a pause point.
    var paused = false
    /// Paused at a pause point: nothing more is written, but the device was not told: it plays out
    /// the fade it holds and falls silent.
    private var pausedAtPoint = false
    /// The device cut (`cutWhileParked`), then was reset: the cut's fade out, once written and
    /// not followed at once, is to be played to its end (`AudioOutput.playOut`).
    private var cutByDevice = false
    private var playOutAfterCut = false
    /// An error that ends playback came: nothing more is read or written.
    private var outputEnded = false
    /// The end marker was drained in this epoch: an empty ring is no starvation.
    var ended = false
    /// The ring's dry spells: when one began, and whether `.starving` was said.
    var drySpell = DrySpell()
    /// Ring sample index up to which volume and gain were applied in place: a device that takes
    /// only part of a region gets the rest again, unscaled twice.
    private var scaledThrough = 0
    /// What was written of a stream's segment, for a cut's fade out (`tailWhileParked`).
    var history = WrittenHistory()

    /// The most frames handed to the device in one `write`: large, so that refilling a device
    /// that asks for a second at a time takes a few calls (each PulseAudio write wakes its main
    /// loop thread), not dozens.
    static let chunkFrames = 1 << 17
    /// Vorbis allows up to 255 channels: room for one frame of them, split by the ring's wrap.
    static let maxChannels = 255
    /// The longest the sink thread sleeps on the device before it looks at its state again. Only
    /// a safety net: devices wake the worker when there is room or news, and a device that keeps
    /// seconds of audio is refilled every second or two (bench/wakeups.sh). Long, because each
    /// time it runs out it costs wake-ups (PulseAudio's timer fires, and is armed again).
    static let longestWait: Duration = .seconds(60)
    /// The longest the sink thread sleeps while paused, ended or waiting for the decoder with
    /// nothing to watch; every reason to go on (a sample batch, a marker, play, park, quit)
    /// posts `dataReady`.
    static let idle: Duration = .seconds(60)

    /// Control thread.
    /// `spaceReady` is posted when the ring has room; `wake` when an event is queued. Installs the
    /// device's event handler (the device must not be open yet).
    init(ring: SampleRing, markers: SPSCQueue<SegmentMarker>, device: any AudioOutput, spaceReady: CountingSemaphore, wake: Wakeup) {
        ThreadRole.control.check()
        self.ring = ring
        self.markers = markers
        self.device = device
        self.spaceReady = spaceReady
        self.wake = wake
        device.onEvent = { [events, wake] event in
            events.pushFromDevice(event)
            wake.signal()
        }
    }

    deinit { history.deallocate() }

    /// Control thread.
    /// Starts the sink thread.
    func start() {
        ThreadRole.control.check()
        thread = PosixThread(name: "motet-sink") { [self] in run() }
    }

    /// Control thread.
    /// Asks the sink thread to end (it closes the device on its way out).
    func stop() {
        ThreadRole.control.check()
        gate.quit()
        device.wakeup()
        dataReady.post()
    }

    /// Control thread.
    /// Waits for the sink thread to end.
    func join() {
        ThreadRole.control.check()
        thread?.join()
    }

    /// Control thread.
    /// Stops the sink thread at a safe point and waits until it is parked.
    func park() {
        ThreadRole.control.check()
        gate.park {
            device.wakeup()
            dataReady.post()
        }
    }

    /// Control thread.
    /// While parked: drops the device's buffered audio and starts a new epoch. Events queued
    /// before the park describe the old epoch (an `.ended` among them no longer holds): take them
    /// before flushing to tell them apart.
    func flushWhileParked() {
        ThreadRole.control.check()
        device.reset()
        playOutAfterCut = cutByDevice
        cutByDevice = false
        epoch &+= 1
        written = 0
        history.forget()
        ended = false
        drySpell.flushed()
        publishHeard(nil)
    }

    /// Control thread.
    /// Lets the parked sink thread go on.
    func unpark() {
        ThreadRole.control.check()
        gate.release()
    }

    /// Control thread.
    /// Pauses or plays on. Applied on the sink thread soon (it is woken); while paused nothing is
    /// written and the heard position stands still.
    /// `atPausePoint`: the pause takes effect when the sink reaches the next pause point in the
    /// ring (`SegmentMarker.pausePoint`), after the fade-out before it.
    func setPaused(_ paused: Bool, atPausePoint: Bool = false) {
        ThreadRole.control.check()
        pauseAtPoint.store(paused && atPausePoint, ordering: .releasing)
        pauseRequested.store(paused, ordering: .releasing)
        device.wakeup()
        dataReady.post()
    }

    /// Control thread, while the sink thread is parked.
    /// Where the sound stops when the device is reset now: what was written to a file, or what a
    /// device has played (its buffered audio is dropped).
    func cutWhileParked() -> OutputCut {
        ThreadRole.control.check()
        guard format != nil, !device.keepsWrittenAudio else { return OutputCut(epoch: epoch, frame: written) }
        // A device that can cut says exactly what it will not play; `flushWhileParked` then
        // rewrites from there instead of dropping everything.
        let exact = device.cut()
        cutByDevice = exact != nil
        let unheard = exact ?? device.state().delayFrames
        return OutputCut(epoch: epoch, frame: max(0, written - unheard))
    }

    /// Control thread.
    /// The volume scale (ReplayGain is applied on top, per segment).
    func setVolume(_ scale: Float) {
        ThreadRole.control.check()
        volumeBits.store(scale.bitPattern, ordering: .relaxed)
    }

    /// Any thread.
    /// Lock-free: what has been heard of the current epoch, to extrapolate.
    func heard() -> HeardNow { position.load() }

    /// Control thread.
    /// Every event since the last call, in the order they happened.
    func takeEvents(_ body: (OutputEvent) -> Void) {
        ThreadRole.control.check()
        events.take(body)
    }

    /// Any thread.
    /// Device events dropped because the control thread did not take them in time.
    var droppedDeviceEvents: Int { events.droppedDeviceEvents }

    // MARK: Sink thread

    /// Sink thread.
    /// Its body: writes what the ring holds, segment after segment, until quit.
    private func run() {
        ThreadRole.sink.enter()
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: Self.maxChannels)
        defer { scratch.deallocate() }
        var channels = 2
        var gain: Float = 1
        while !gate.isQuitting {
            if gate.parkIsRequested {
                gate.parkHere { wake.signal() }
                continue
            }
            applyPause()
            if paused || outputEnded {
                dataReady.wait(for: Self.idle)
                continue
            }
            if let marker = markers.peek(), marker.sampleIndex <= ring.readIndex {
                _ = markers.pop()
                if marker.pausePoint {
                    if pauseAtPoint.exchange(false, ordering: .acquiringAndReleasing), pauseRequested.load(ordering: .acquiring) {
                        paused = true
                        pausedAtPoint = true
                        playOutAfterCut = false
                        if format != nil { device.playOut() }  // the fade out before the pause
                        publishHeard(format != nil ? device.state() : nil)
                    }
                    continue
                }
                if marker.isEnd {
                    if drain() {
                        ended = true
                        publishHeard(nil)
                        emit(.ended)
                    }
                    continue
                }
                let next = AudioFormat(sampleRate: marker.sampleRate, channels: marker.channels)
                if next != format {
                    if format != nil, !drain() { continue }  // parked or quitting: the ring is reset
                    open(next)
                }
                channels = marker.channels
                gain = marker.gain
                history.enter(marker, toDevice: !device.keepsWrittenAudio)
                if marker.segmentID != 0 { emit(.segmentWritten(SegmentBoundary(segmentID: marker.segmentID, epoch: epoch, frame: written))) }
                continue
            }
            var limit = ring.availableToRead
            if let marker = markers.peek() { limit = min(limit, marker.sampleIndex - ring.readIndex) }
            limit = min(limit, Self.chunkFrames * channels)
            limit -= limit % channels
            if limit <= 0 {
                if playOutAfterCut, written > 0, format != nil {
                    playOutAfterCut = false
                    device.playOut()  // the fade out of a stop, or a decoder late with what follows
                }
                let state = format != nil ? device.state() : nil
                let starvingIn = ranDry(state)
                publishHeard(state)
                dataReady.wait(for: starvingIn.map { .nanoseconds($0) } ?? Self.idle)
                continue
            }
            flowing()
            guard format != nil else {
                // No device for this format: the samples are dropped, time does not advance.
                let region = ring.readableRegion()
                ring.commitRead(region.count >= limit ? limit : region.count - region.count % channels)
                freedRing()
                continue
            }
            let state = device.state()
            publishHeard(state)
            if state.freeFrames <= 0 {
                device.wait(timeout: Self.longestWait)
                continue
            }
            writeSamples(limit: min(limit, state.freeFrames * channels), channels: channels, gain: gain, scratch: scratch)
        }
        device.close()
        gate.markExited()
    }

    /// Sink thread.
    /// Writes up to `limit` samples from the ring, in place (volume and gain applied there), or
    /// one frame split by the ring's wrap through `scratch`; releases what the device took.
    private func writeSamples(limit: Int, channels: Int, gain: Float, scratch: UnsafeMutablePointer<Float>) {
        ThreadRole.sink.check()
        let region = ring.readableRegion()
        let scale = gain * Float(bitPattern: volumeBits.load(ordering: .relaxed))
        let samples: UnsafeMutablePointer<Float>
        let count: Int
        if region.count >= channels {
            count = min(limit, region.count - region.count % channels)
            samples = region.baseAddress!
            let start = ring.readIndex
            if history.isOn { history.keep(samples, at: start, count: count) }
            if scale != 1 {
                for i in min(count, max(0, scaledThrough - start))..<count { samples[i] *= scale }
            }
            scaledThrough = max(scaledThrough, start + count)
        } else {
            count = ring.peek(into: scratch, count: channels)
            samples = scratch
            if history.isOn { history.keep(scratch, at: ring.readIndex, count: count) }
            if scale != 1 { for i in 0..<count { samples[i] *= scale } }
        }
        var accepted = 0
        do throws(OutputError) {
            accepted = try device.write(UnsafeBufferPointer(start: samples, count: count))
        } catch {
            emit(.failed(error))
            if error.endsPlayback { outputEnded = true }
        }
        if accepted > 0 {
            ring.commitRead(accepted * channels)
            written += Int64(accepted)
            freedRing()
        } else if !outputEnded {
            // Full after all, or a write that failed for this stream only: try again later.
            device.wait(timeout: Self.longestWait)
        }
    }

    /// Sink thread.
    /// Wakes the decoder when half the ring is free, so it decodes in bursts.
    private func freedRing() {
        ThreadRole.sink.check()
        if ring.availableToWrite >= ring.capacity / 2 { spaceReady.post() }
    }

    /// Sink thread.
    /// Opens the device for `next` and starts a new epoch; a failure is reported and the
    /// segment's samples are dropped.
    private func open(_ next: AudioFormat) {
        ThreadRole.sink.check()
        do throws(OutputError) {
            try device.open(next)
            format = next
        } catch {
            format = nil
            emit(.failed(error))
            if error.endsPlayback { outputEnded = true }
        }
        epoch &+= 1
        written = 0
        publishHeard(nil)
    }

    /// Sink thread.
    /// Plays out what the device holds. False when a park or quit cut it short; a pause on the
    /// way is applied and waited out.
    private func drain() -> Bool {
        ThreadRole.sink.check()
        guard format != nil else { return !gate.mustStop }
        while !device.drain() {
            if gate.mustStop { return false }
            applyPause()
            while paused {
                if gate.mustStop { return false }
                dataReady.wait(for: Self.idle)
                applyPause()
            }
        }
        return !gate.mustStop
    }

    /// Sink thread.
    /// Tells the device about a pause or play requested since the last look.
    private func applyPause() {
        ThreadRole.sink.check()
        let requested = pauseRequested.load(ordering: .acquiring)
        guard requested != paused, !(requested && pauseAtPoint.load(ordering: .acquiring)) else { return }
        paused = requested
        if pausedAtPoint {
            pausedAtPoint = false  // the device was never paused: it plays on as it is written to
        } else {
            device.setPaused(requested)
        }
        publishHeard(format != nil ? device.state() : nil)
    }
}
