#if canImport(Glibc)
import Glibc
#endif
import MotetDecoding
import MotetEvents
import MotetOutput
import Synchronization

/// The real `PlaybackEngine`: the decoder thread, the sink worker, the ring between them and the
/// cursor that tells the decoder what comes next. Used only by the control thread.
final class WorkerEngine: PlaybackEngine {
    private let sink: any AudioSink
    private let ring: SampleRing
    private let markers = SPSCQueue<SegmentMarker>(capacity: 64)
    private let sinkWorker: SinkWorker
    private let decodeWorker: DecodeWorker
    private let cursor: Locked<DecodeCursor>
    private let deviceNews = SPSCQueue<SinkEvent>(capacity: 64)
    private var generation = 0
    private var endReported = false
    private var reportedStarving: Int64 = 0
    private var seenOutputErrors = 0

    init(configuration: PlayerConfiguration, queue: PlayQueue, sink: any AudioSink, inbox: PlayerInbox) {
        self.sink = sink
        // About 1.5 s of 48 kHz stereo: enough to ride out a slow disk, small enough to keep memory low.
        ring = SampleRing(minimumCapacity: 1 << 17)
        let spaceReady = CountingSemaphore()
        sinkWorker = SinkWorker(ring: ring, markers: markers, sink: sink, spaceReady: spaceReady, control: inbox.wakeup)
        let cursor = Locked(
            DecodeCursor(queue: queue, next: queue.isEmpty ? nil : 0, startMicros: configuration.startMicros))
        self.cursor = cursor
        decodeWorker = DecodeWorker(
            ring: ring, markers: markers, spaceReady: spaceReady, dataReady: sinkWorker.dataReady,
            artworkStore: ArtworkStore(cacheDirectory: configuration.artworkCacheDirectory),
            defaultArtwork: configuration.defaultArtwork, replayGain: configuration.replayGain,
            nextTrack: { cursor.withLock { $0.take() } },
            report: { inbox.post($0) })
        sink.onEvent = { [deviceNews, wakeup = inbox.wakeup] news in
            deviceNews.push(news)
            wakeup.signal()
        }
    }

    func start() {
        sinkWorker.start()
        decodeWorker.start()
    }

    /// Ends both threads and closes the output.
    func shutdown() {
        decodeWorker.stop()
        sinkWorker.stop()
        decodeWorker.join()
        sinkWorker.join()
        sink.close()
    }

    func reposition(to position: Int?, startMicros: Int64, reuseTrackID: UInt64?, hold: Bool) -> Int {
        decodeWorker.park()
        sinkWorker.park()
        ring.reset()
        markers.reset()
        sinkWorker.flushWhileParked()
        decodeWorker.dropCurrent.store(true, ordering: .releasing)
        generation += 1
        cursor.withLock {
            $0.next = position
            $0.startMicros = startMicros
            $0.reuseTrackID = reuseTrackID
            $0.generation = generation
        }
        endReported = false
        reportedStarving = 0
        if !hold { release() }
        return generation
    }

    func release() {
        decodeWorker.unpark()
        sinkWorker.unpark()
    }

    func setPaused(_ paused: Bool) {
        sinkWorker.paused.store(paused, ordering: .releasing)
        if paused {
            sink.pause()
            sink.interruptWrite()
        } else {
            sink.resume()
            sinkWorker.dataReady.post()
        }
    }

    func setVolume(_ scale: Float) {
        sinkWorker.volumeBits.store(scale.bitPattern, ordering: .releasing)
    }

    func heard() -> HeardNow {
        HeardNow(
            epoch: sinkWorker.epoch.load(ordering: .acquiring), frames: sink.heardFrames, framesPerSecond: 0,
            atNanos: monotonicMicros() * 1000)
    }

    /// Control thread: the output's news since the last call, in order.
    func takeEvents(_ body: (OutputEvent) -> Void) {
        while let news = deviceNews.pop() { body(.device(news)) }
        // Read before taking the boundaries: the sink sets it after pushing the last one.
        let ended = sinkWorker.endReached.load(ordering: .acquiring)
        while let boundary = sinkWorker.boundaries.pop() { body(.segmentWritten(boundary)) }
        let errors = sinkWorker.outputErrors.load(ordering: .acquiring)
        if errors != seenOutputErrors {
            seenOutputErrors = errors
            if let error = sinkWorker.lastOutputError.withLock({ $0 }) { body(.failed(error)) }
        }
        let starving = sinkWorker.starvingSince.load(ordering: .acquiring)
        if starving != reportedStarving {
            body(starving == 0 ? .fed : .starving(sinceNanos: starving * 1000))
            reportedStarving = starving
        }
        if ended && !endReported {
            endReported = true
            body(.ended)
        }
    }
}
