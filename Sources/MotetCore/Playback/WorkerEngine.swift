#if canImport(Glibc)
import Glibc
#endif
import MotetDecoding
import MotetEvents
import MotetOutput
import Synchronization
import MotetSystem

/// The real `PlaybackEngine`: the decoder thread, the sink worker, the ring between them and the
/// cursor that tells the decoder what comes next. Used only by the control thread: each method
/// checks it (`ThreadRole`), but `unplayable`, which the decoder's callbacks call.
final class WorkerEngine: PlaybackEngine {
    private let ring: SampleRing
    private let markers = SPSCQueue<SegmentMarker>(capacity: 64)
    private let sinkWorker: SinkWorker
    private let device: any AudioOutput
    private let decodeWorker: DecodeWorker
    private let cursor: Locked<DecodeCursor>
    /// The device's news taken while repositioning, handed on with the next `takeEvents`.
    private var carried: [OutputEvent] = []

    /// Control thread.
    /// The workers' callbacks (`report`, `passOver`, the cursor's `take`) run on the decoder thread.
    init(
        configuration: PlayerConfiguration, queue: PlayQueue, device: any AudioOutput, inbox: PlayerInbox,
        disliked: DislikedTracks
    ) {
        ThreadRole.control.check()
        // About 3 s of 44.1 kHz stereo (1 MiB): more than a device asks for at a time (PulseAudio:
        // up to 2 s), so that a whole refill is written at once and the decoder wakes once per
        // refill, not several times.
        ring = SampleRing(minimumCapacity: 1 << 18)
        self.device = device
        let spaceReady = CountingSemaphore()
        sinkWorker = SinkWorker(ring: ring, markers: markers, device: device, spaceReady: spaceReady, wake: inbox.wakeup)
        let cursor = Locked(
            DecodeCursor(queue: queue, next: queue.isEmpty ? nil : 0, start: configuration.start))
        self.cursor = cursor
        let playlists = PlayedPlaylists(cursor: cursor, inbox: inbox, options: configuration.network)
        decodeWorker = DecodeWorker(
            ring: ring, markers: markers, spaceReady: spaceReady, dataReady: sinkWorker.dataReady,
            artworkStore: ArtworkStore(cacheDirectory: configuration.artworkCacheDirectory),
            defaultArtwork: configuration.defaultArtwork, replayGain: configuration.replayGain,
            crossfade: CrossfadeSettings(length: configuration.crossfade, acrossAlbums: configuration.crossfadeAlbums),
            network: configuration.network, outputRate: configuration.outputRate, heard: { [sinkWorker] in sinkWorker.heard() }, nextTrack: { cursor.withLock { $0.advance() } },
            expandEntry: { playlists.expand($0, playlist: $1, cancelled: $2) },
            report: { report in
                if case .segmentOpened = report { cursor.withLock { $0.opened() } }
                inbox.post(report)
                // After the file's own line: "nothing left to play" comes last.
                if case .openFailed = report { Self.unplayable(cursor, disliked: false, inbox: inbox) }
            },
            passOver: { request, metadata in
                guard disliked.passesOver(request, metadata: metadata) else { return false }
                inbox.post(.passedOver(path: request.path, title: metadata.title, generation: request.generation))
                Self.unplayable(cursor, disliked: true, inbox: inbox)
                return true
            },
            follows: { a, b in cursor.withLock { $0.queue.isListed(b, rightAfter: a) } },
            takeCut: { cursor.withLock { c in defer { c.cut = nil }; return c.cut } })
    }

    /// Decoder thread.
    /// Counts a track with nothing to play; says so when a whole pass of the queue had nothing.
    private static func unplayable(_ cursor: Locked<DecodeCursor>, disliked: Bool, inbox: PlayerInbox) {
        ThreadRole.decoder.check()
        let news = cursor.withLock { c -> DecoderReport? in
            guard c.unplayable(disliked: disliked) else { return nil }
            return .nothingLeft(disliked: c.dislikedInARow, total: c.queue.count, generation: c.generation)
        }
        if let news { inbox.post(news) }
    }

    /// Control thread.
    /// Starts the sink and decoder threads.
    func start() {
        ThreadRole.control.check()
        sinkWorker.start()
        decodeWorker.start()
    }

    /// Control thread.
    /// Ends both threads; the sink worker closes the device on its way out.
    func shutdown() {
        ThreadRole.control.check()
        decodeWorker.stop()
        sinkWorker.stop()
        decodeWorker.join()
        sinkWorker.join()
    }

    /// Control thread.
    /// `PlaybackEngine.reposition`.
    func reposition(
        to position: Int?, start: Duration, reuseTrackID: UInt64?, hold: Bool, backwards: Bool, fade: (FadePlace, CutFade)?
    ) -> Int {
        ThreadRole.control.check()
        decodeWorker.park()
        sinkWorker.park()
        // What the sink said before the park is about buffers about to be thrown away (an end,
        // a boundary, a starvation); only the device's own news still holds.
        sinkWorker.takeEvents { event in
            switch event {
            case .notice, .failed: carried.append(event)
            case .segmentWritten, .starving, .fed, .ended: break
            }
        }
        ring.reset()
        markers.reset()
        sinkWorker.flushWhileParked()
        decodeWorker.dropCurrent.store(true, ordering: .releasing)
        let generation = cursor.withLock {
            $0.generation += 1
            $0.next = position
            $0.awaitingEntries = false
            $0.start = start
            $0.reuseTrackID = reuseTrackID
            $0.lastTaken = nil
            $0.opened()  // a new start: count passes from here
            $0.backwards = backwards
            $0.cut = fade.map { [generation = $0.generation] in FadeFrom(place: $0.0, kind: $0.1, generation: generation) }
            $0.holding = hold && fade != nil
            return $0.generation
        }
        if !hold || fade != nil { unpark() }
        return generation
    }

    /// Control thread.
    /// `PlaybackEngine.cut`.
    func cut(tail: Duration) -> OutputCut {
        ThreadRole.control.check()
        decodeWorker.park()
        sinkWorker.park()
        var cut = sinkWorker.cutWhileParked()
        if let rate = sinkWorker.format?.sampleRate { cut.tail = sinkWorker.tailWhileParked(cut, maxFrames: tail.frames(rate: Int64(rate))) }
        return cut
    }

    /// Control thread.
    /// `PlaybackEngine.release`.
    func release() {
        ThreadRole.control.check()
        cursor.withLock { $0.holding = false }
        decodeWorker.wake()
        unpark()
    }

    /// Control thread.
    /// Lets both parked workers go on.
    private func unpark() {
        ThreadRole.control.check()
        decodeWorker.unpark()
        sinkWorker.unpark()
    }

    /// Control thread.
    /// `PlaybackEngine.changeQueue`.
    func changeQueue(_ queue: inout PlayQueue, _ body: (inout PlayQueue, _ lastDecoded: Int?) -> Void) {
        ThreadRole.control.check()
        cursor.withLock { c in
            body(&queue, c.lastTaken)
            c.queue = queue
            // What follows the last track taken, in the new order (a reposition not taken yet
            // keeps its target; a playlist being placed keeps the decoder waiting at it).
            if !c.awaitingEntries, let taken = c.lastTaken { c.next = queue.position(after: taken) }
        }
    }

    /// Control thread.
    /// `PlaybackEngine.entriesPlaced`.
    func entriesPlaced(at position: Int, in queue: PlayQueue, start: Duration) {
        ThreadRole.control.check()
        cursor.withLock { $0.entriesPlaced(at: position, in: queue, start: start) }
        decodeWorker.wake()
    }

    /// Control thread.
    /// `PlaybackEngine.setPaused`.
    func setPaused(_ paused: Bool, atPausePoint: Bool) {
        ThreadRole.control.check()
        sinkWorker.setPaused(paused, atPausePoint: atPausePoint)
    }

    /// Control thread.
    /// `PlaybackEngine.setVolume`.
    func setVolume(_ scale: Float) {
        ThreadRole.control.check()
        sinkWorker.setVolume(scale)
    }

    /// Control thread.
    /// `PlaybackEngine.describe`.
    func describe(title: String?, artist: String?) {
        ThreadRole.control.check()
        device.describe(title: title, artist: artist)
    }

    /// Control thread.
    /// The heard position extrapolated to now.
    func heard() -> HeardNow {
        ThreadRole.control.check()
        var h = sinkWorker.heard()
        let now = MonotonicInstant.now()
        h.frames = h.frames(at: now)
        h.at = now
        return h
    }

    /// Control thread.
    /// The output's news since the last call, in order.
    func takeEvents(_ body: (OutputEvent) -> Void) {
        ThreadRole.control.check()
        for event in carried { body(event) }
        carried.removeAll()
        sinkWorker.takeEvents(body)
    }
}
