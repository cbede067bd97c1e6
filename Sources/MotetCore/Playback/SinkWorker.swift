#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetOutput
import Synchronization

/// The sink thread: moves samples from the ring to the sink. It allocates nothing after start,
/// takes no lock that the UI or a plugin can hold (only atomics, sem_post and an eventfd), and never
/// calls a plugin.
final class SinkWorker: @unchecked Sendable {
    let ring: SampleRing
    let markers: SPSCQueue<SegmentMarker>
    let boundaries = SPSCQueue<SegmentBoundary>(capacity: 256)
    let sink: any AudioSink
    /// Posted by the decoder when it writes samples and by the control thread to wake us.
    let dataReady = CountingSemaphore()
    /// Posted by us when we consume samples (the decoder waits on it when the ring is full).
    let spaceReady: CountingSemaphore
    private let control: Wakeup

    private let gate = WorkerGate()
    let paused = Atomic<Bool>(false)
    /// The end marker was reached and the sink drained.
    let endReached = Atomic<Bool>(false)
    /// When the ring ran dry before the end (monotonic µs), 0 while samples flow. The control
    /// thread calls it a stall only when it lasts: an untimed sink empties the ring all the time.
    let starvingSince = Atomic<Int64>(0)
    let epoch = Atomic<Int>(0)
    /// Frames written to the sink in the current epoch.
    let framesWritten = Atomic<Int64>(0)
    /// Volume times ReplayGain is applied here; volume is stored as Float bits.
    let volumeBits = Atomic<UInt32>(Float(1).bitPattern)
    /// Bumped when the sink could not be opened for a segment's format.
    let openFailures = Atomic<Int>(0)
    /// The format the sink is open with (channels * 1_000_000 + rate), 0 when closed.
    let openFormat = Atomic<Int>(0)
    /// Bumped each time the sink throws (open or write); `lastOutputError` holds the last error.
    let outputErrors = Atomic<Int>(0)
    /// The sink's last error, for the control thread to show. Only the sink thread and the control
    /// thread take this lock, each for a copy.
    let lastOutputError = Locked<OutputError?>(nil)
    /// The sink threw an error that ends playback: nothing more is read or written.
    let outputEnded = Atomic<Bool>(false)
    private var thread: PosixThread?

    static let chunkFrames = 2048
    /// Sized for 8 channels; more channels get fewer frames per chunk.
    static let maxChannels = 8

    init(ring: SampleRing, markers: SPSCQueue<SegmentMarker>, sink: any AudioSink, spaceReady: CountingSemaphore, control: Wakeup) {
        self.ring = ring
        self.markers = markers
        self.sink = sink
        self.spaceReady = spaceReady
        self.control = control
    }

    func start() {
        thread = PosixThread(name: "motet-sink") { [self] in run() }
    }

    func join() { thread?.join() }

    /// Control thread: stop the sink thread at a safe point and wait until it is parked.
    func park() {
        gate.park {
            sink.interruptWrite()
            dataReady.post()
        }
    }

    /// Control thread, while parked: forget the sink's buffered audio and start a new epoch.
    func flushWhileParked() {
        sink.flush()
        epoch.wrappingAdd(1, ordering: .sequentiallyConsistent)
        framesWritten.store(0, ordering: .sequentiallyConsistent)
        boundaries.reset()
        endReached.store(false, ordering: .sequentiallyConsistent)
        starvingSince.store(0, ordering: .sequentiallyConsistent)
    }

    func unpark() { gate.release() }

    func stop() {
        gate.quit()
        sink.interruptWrite()
        dataReady.post()
    }

    private func run() {
        let capacity = Self.chunkFrames * Self.maxChannels
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer { scratch.deallocate() }
        var channels = 2
        var gain: Float = 1
        var isOpen = false
        while !gate.isQuitting {
            if gate.parkIsRequested {
                gate.parkHere { control.signal() }
                continue
            }
            if paused.load(ordering: .acquiring) || outputEnded.load(ordering: .acquiring) {
                dataReady.wait(seconds: 0.5)
                continue
            }
            if let marker = markers.peek(), marker.sampleIndex <= ring.readIndex {
                _ = markers.pop()
                if marker.isEnd {
                    if isOpen { sink.drain() }
                    endReached.store(true, ordering: .releasing)
                    control.signal()
                    continue
                }
                let key = marker.channels * 1_000_000 + marker.sampleRate
                if key != openFormat.load(ordering: .relaxed) {
                    if isOpen { sink.drain() }
                    do {
                        try sink.open(AudioFormat(sampleRate: marker.sampleRate, channels: marker.channels))
                        isOpen = true
                        openFormat.store(key, ordering: .releasing)
                    } catch {
                        isOpen = false
                        openFormat.store(0, ordering: .releasing)
                        openFailures.wrappingAdd(1, ordering: .releasing)
                        report(error)
                    }
                    epoch.wrappingAdd(1, ordering: .releasing)
                    framesWritten.store(0, ordering: .releasing)
                }
                channels = marker.channels
                gain = marker.gain
                let boundary = SegmentBoundary(
                    segmentID: marker.segmentID, epoch: epoch.load(ordering: .relaxed),
                    frame: framesWritten.load(ordering: .relaxed))
                // A boundary is how the control thread learns that a track was heard: never drop
                // one. Full (hundreds of tiny tracks while the control thread was descheduled):
                // wake it and wait for it, as for a full device.
                while !boundaries.push(boundary) {
                    if gate.mustStop { break }
                    control.signal()
                    dataReady.wait(seconds: 0.01)
                }
                control.signal()
                continue
            }
            var limit = ring.availableToRead
            if let marker = markers.peek() { limit = min(limit, marker.sampleIndex - ring.readIndex) }
            limit = min(limit, (capacity / channels) * channels)
            limit -= limit % channels
            if limit <= 0 {
                if isOpen && !endReached.load(ordering: .relaxed) && markers.peek() == nil
                    && starvingSince.load(ordering: .relaxed) == 0
                {
                    starvingSince.store(monotonicMicros(), ordering: .releasing)
                }
                dataReady.wait(seconds: 0.25)
                continue
            }
            if starvingSince.load(ordering: .relaxed) != 0 {
                starvingSince.store(0, ordering: .releasing)
            }
            // The sink reads the ring in place; only a frame split by the ring's wrap (a channel
            // count that does not divide its size) is copied out through scratch.
            let region = ring.readableRegion()
            let inPlace = region.count >= channels
            let n: Int
            let samples: UnsafeMutablePointer<Float>
            if inPlace {
                n = min(limit, region.count - region.count % channels)
                samples = region.baseAddress!
            } else {
                n = ring.read(into: scratch, count: limit)
                samples = scratch
            }
            defer {
                if inPlace { ring.commitRead(n) }
                // Wake the decoder when half the ring is free, so it decodes in bursts.
                if ring.availableToWrite >= ring.capacity / 2 { spaceReady.post() }
            }
            if !isOpen { continue }  // no device for this format: the samples are dropped, time does not advance
            let scale = gain * Float(bitPattern: volumeBits.load(ordering: .relaxed))
            if scale != 1 {
                for i in 0..<n { samples[i] *= scale }
            }
            var offset = 0
            while offset < n {
                let accepted: Int
                do {
                    accepted = try sink.write(UnsafeBufferPointer(start: samples + offset, count: n - offset))
                } catch {
                    accepted = 0
                    report(error)
                }
                offset += accepted * channels
                framesWritten.wrappingAdd(Int64(accepted), ordering: .releasing)
                if accepted == 0 {
                    if gate.mustStop || outputEnded.load(ordering: .relaxed) { break }
                    // Paused, corked or the server is away: wait, then carry on with the same samples.
                    dataReady.wait(seconds: 0.1)
                }
            }
        }
        gate.markExited()
    }

    /// Hands a sink error to the control thread (which shows it, and stops when it ends playback).
    private func report(_ error: OutputError) {
        lastOutputError.withLock { $0 = error }
        if error.endsPlayback { outputEnded.store(true, ordering: .releasing) }
        outputErrors.wrappingAdd(1, ordering: .releasing)
        control.signal()
    }
}
