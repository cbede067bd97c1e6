#if canImport(Glibc)
import Glibc
#endif
import MotetConfiguration
import MotetOutput
import Synchronization

/// The player: owns all playback state and is its only writer. Runs on the thread that calls
/// `run()` (the control thread); the decoder and sink threads only exchange samples, markers and
/// atomics with it. Everything else talks to it through `send(_:from:)`.
public final class Player: @unchecked Sendable {
    // Thread ownership: the stored properties below marked "control" are touched only by the
    // control thread; the rest are immutable, atomics, or Mutex-protected.

    private let configuration: PlayerConfiguration
    private let sink: any AudioDevice
    private let events: @Sendable (PlayerEvent) -> Void
    private let display: @Sendable (PlayerDisplay) -> Void
    private let message: @Sendable (String) -> Void

    private let ring: SampleRing
    private let markers = SPSCQueue<SegmentMarker>(capacity: 64)
    private let control = Wakeup()
    private let sinkWorker: SinkWorker
    private let decodeWorker: DecodeWorker
    private let cursor: Locked<DecodeCursor>
    private let mailbox = Locked<[Message]>([])
    private let feedback: FeedbackStore?

    // Read by `send` on any thread to answer at once.
    private let nextEnabledNow = Atomic<Bool>(false)
    private let skipsExhausted = Atomic<Bool>(false)
    private let volumeNow = Atomic<Int>(100)

    // control: output events taken from the sink worker and not handled yet, boundaries
    // written and not yet heard, and when the ring ran dry (monotonic µs).
    private var outputEvents: [OutputEvent] = []
    private var boundaries: [SegmentBoundary] = []
    private var endReached = false
    private var starvingSince: Int64?
    private var glitches = 0

    // control
    private var status: PlaybackStatus = .loading
    private var current: (info: SegmentInfo, boundary: SegmentBoundary)?
    private var liked = false
    private var disliked = false
    private var volume: Int
    private var skipLimiter: SkipLimiter?
    private var failedTracks: Set<UInt64> = []
    private var playedAnything = false
    private var quitRequested = false
    private var interruption: InterruptionReason?
    /// When the last "ran dry" notice was shown (monotonic µs): at most one per `glitchNoticeMicros`.
    private var lastGlitchNotice: Int64?
    private static let glitchNoticeMicros: Int64 = 10_000_000
    private var lastStateEvent: PlaybackState?
    private var stoppedParked = false
    /// The play-order position the workers were last sent to (a skip, a seek, a stop) while its
    /// first segment has not been heard yet; nil once it has. A stop in between keeps this place.
    private var loadingPosition: Int?
    private var lastOutputMessage = ""

    /// True once the output failed for good (a WAV file that cannot be written): `run()` has
    /// stopped, and the exit status should be 1. Read after `run()` returns.
    public private(set) var outputFailed = false

    enum Message: Sendable {
        case command(PlayerCommand, CommandSource)
        case decoder(DecoderReport)
    }

    /// - Parameters:
    ///   - events: every event for the delegates (called on the control thread; must not block).
    ///   - display: the status for the terminal, a few times a second while playing.
    ///   - message: one human line to show the user (errors, notices).
    public init(
        configuration: PlayerConfiguration, sink: any AudioDevice,
        events: @escaping @Sendable (PlayerEvent) -> Void,
        display: @escaping @Sendable (PlayerDisplay) -> Void,
        message: @escaping @Sendable (String) -> Void
    ) {
        self.configuration = configuration
        self.sink = sink
        self.events = events
        self.display = display
        self.message = message
        volume = max(0, min(100, configuration.volume))
        if let limit = configuration.skipLimit { skipLimiter = SkipLimiter(count: limit.count, minutes: limit.minutes) }
        feedback = configuration.feedbackDirectory.map { FeedbackStore(directory: $0) }
        // About 1.5 s of 48 kHz stereo: enough to ride out a slow disk, small enough to keep memory low.
        ring = SampleRing(minimumCapacity: 1 << 17)
        let spaceReady = CountingSemaphore()
        sinkWorker = SinkWorker(ring: ring, markers: markers, device: sink, spaceReady: spaceReady, wake: control)
        var queue = PlayQueue(files: configuration.files, shuffle: configuration.shuffle, loop: configuration.loop)
        queue.loop = configuration.loop
        let cursor = Locked(
            DecodeCursor(queue: queue, next: queue.isEmpty ? nil : 0, startMicros: configuration.startMicros))
        self.cursor = cursor
        let mailbox = self.mailbox
        let control = self.control
        decodeWorker = DecodeWorker(
            ring: ring, markers: markers, spaceReady: spaceReady, dataReady: sinkWorker.dataReady,
            artworkStore: ArtworkStore(cacheDirectory: configuration.artworkCacheDirectory),
            defaultArtwork: configuration.defaultArtwork, replayGain: configuration.replayGain,
            nextTrack: { cursor.withLock { $0.take() } },
            report: { report in
                mailbox.withLock { $0.append(.decoder(report)) }
                control.signal()
            })
        sinkWorker.setVolume(Float(volume) / 100)
        volumeNow.store(volume, ordering: .relaxed)
    }

    /// The volume, 0 to 100; thread-safe.
    public var volumePercent: Int { volumeNow.load(ordering: .relaxed) }

    /// Asks the player to do something; thread-safe, only enqueues. Commands from plugins are
    /// refused when remote commands are off, and a skip is refused when none is allowed now.
    @discardableResult
    public func send(_ command: PlayerCommand, from source: CommandSource) -> CommandAnswer {
        if case .plugin = source, !configuration.remoteCommands {
            return .refused("remote commands are off (remote-commands = no)")
        }
        if command == .next && !nextEnabledNow.load(ordering: .acquiring) {
            let why = skipsExhausted.load(ordering: .acquiring) ? "no skip left (--skip-limit)" : "there is no next track"
            if source == .user { mailbox.withLock { $0.append(.command(command, source)) } ; control.signal() }
            return .refused(why)
        }
        mailbox.withLock { $0.append(.command(command, source)) }
        control.signal()
        return .accepted
    }

    /// Plays the queue to its end or until `quit`. Returns true when anything was played.
    public func run() -> Bool {
        publishState()
        sinkWorker.start()
        decodeWorker.start()
        while !quitRequested {
            control.wait(seconds: status == .playing ? 0.25 : 1)
            let messages = mailbox.withLock { m -> [Message] in
                let taken = m
                m.removeAll(keepingCapacity: true)
                return taken
            }
            for m in messages {
                switch m {
                case .command(let command, let source): handle(command, from: source)
                case .decoder(let report): handle(report)
                }
            }
            sinkWorker.takeEvents { outputEvents.append($0) }
            let taken = outputEvents
            outputEvents.removeAll(keepingCapacity: true)
            for event in taken { handle(event) }
            advanceHeardSegments()
            if endReached && !stoppedParked {
                finishQueue()
                break
            }
            updateStarving()
            refreshNextEnabled()
            showDisplay()
        }
        decodeWorker.stop()
        sinkWorker.stop()
        decodeWorker.join()
        sinkWorker.join()
        return playedAnything
    }

    // MARK: - Segments heard

    /// Moves `current` forward to every segment whose first frame has now been heard.
    private func advanceHeardSegments() {
        while let boundary = boundaries.first {
            let heard = sinkWorker.heard()
            guard boundary.epoch < heard.epoch || heard.frames() >= boundary.frame else { break }
            boundaries.removeFirst()
            guard let info = decodeWorker.segments.withLock({ $0.removeValue(forKey: boundary.segmentID) }) else {
                continue
            }
            let isNewTrack = current?.info.trackID != info.trackID
            if isNewTrack, let previous = current {
                finish(previous.info, reason: .completed)
            }
            current = (info, boundary)
            loadingPosition = nil
            if isNewTrack {
                playedAnything = true
                let rating = feedback?.rating(
                    path: info.path, title: info.metadata.title, artists: info.metadata.artists, album: info.metadata.album)
                liked = rating == .liked
                disliked = rating == .disliked
                for warning in info.metadata.warnings { message("motet: \(info.path): \(warning)") }
            }
            if status == .loading || status == .stalled { status = .playing }
            refreshNextEnabled()
            publishState()
            publishNowPlaying()
        }
    }

    private func finish(_ info: SegmentInfo, reason: FinishReason) {
        let ok = !failedTracks.contains(info.trackID)
        events(
            .trackFinished(
                TrackFinished(
                    trackID: info.trackID, filePath: info.path, title: info.metadata.title,
                    successfully: ok, reason: ok ? reason : .failed)))
    }

    private func finishQueue() {
        if let previous = current { finish(previous.info, reason: .completed) }
        current = nil
        status = .complete
        publishNowPlaying()
        publishState()
    }

    // MARK: - Elapsed time

    /// What has been heard of the current track, in microseconds.
    private func elapsedMicros() -> Int64? {
        guard let c = current else { return nil }
        var frames: Int64 = 0
        let heard = sinkWorker.heard()
        if c.boundary.epoch == heard.epoch {
            frames = max(0, heard.frames() - c.boundary.frame)
        }
        let rate = Int64(max(1, c.info.format.sampleRate))
        var elapsed = c.info.fileStartMicros + frames * 1_000_000 / rate
        if let d = c.info.durationMicros { elapsed = min(elapsed, d) }
        return elapsed
    }

    // MARK: - Publishing

    private func nowPlaying() -> NowPlaying {
        let now = monotonicMicros()
        guard let c = current else { return .nothing(at: now) }
        let m = c.info.metadata
        return NowPlaying(
            track: TrackInfo(
                title: m.title, artists: m.artists, album: m.album, durationMicros: c.info.durationMicros,
                artwork: c.info.artwork, filePath: c.info.path),
            trackID: c.info.trackID, elapsedMicros: elapsedMicros(), elapsedAtMicros: now,
            rate: status == .playing ? 1 : 0, liked: liked, disliked: disliked,
            nextEnabled: nextEnabledNow.load(ordering: .relaxed), previousEnabled: previousEnabled())
    }

    private func publishNowPlaying() {
        let snapshot = nowPlaying()
        events(.nowPlaying(snapshot))
        showDisplay(snapshot)
    }

    private func publishState() {
        let state = PlaybackState(
            status: status, volumePercent: volume, shuffle: configuration.shuffle, loop: configuration.loop,
            canSeek: current?.info.canSeek ?? false, remoteCommands: configuration.remoteCommands)
        guard state != lastStateEvent else { return }
        lastStateEvent = state
        events(.playbackState(state))
    }

    private func showDisplay(_ snapshot: NowPlaying? = nil) {
        var left: Int? = nil
        if var limiter = skipLimiter {
            left = limiter.left(at: monotonicMicros())
            skipLimiter = limiter
        }
        display(PlayerDisplay(nowPlaying: snapshot ?? nowPlaying(), status: status, volume: volume, skipsLeft: left))
    }

    // MARK: - Queue navigation

    private func hasNext() -> Bool {
        guard let c = current else { return false }
        return cursor.withLock { $0.queue.position(after: c.info.orderPosition) } != nil
    }

    private func previousEnabled() -> Bool { current != nil }

    private func refreshNextEnabled() {
        var left = Int.max
        if var limiter = skipLimiter {
            left = limiter.left(at: monotonicMicros())
            skipLimiter = limiter
        }
        skipsExhausted.store(left == 0, ordering: .releasing)
        let enabled = hasNext() && left > 0
        if enabled != nextEnabledNow.load(ordering: .relaxed) {
            nextEnabledNow.store(enabled, ordering: .releasing)
            if current != nil { events(.nowPlaying(nowPlaying())) }
        }
    }

    /// Stops both threads, forgets what is buffered, and starts decoding `position` at `startMicros`.
    private func reposition(to position: Int?, startMicros: Int64, keepTrack: Bool) {
        parkWorkers()
        loadingPosition = position
        cursor.withLock {
            $0.next = position
            $0.startMicros = max(0, startMicros)
            $0.reuseTrackID = keepTrack ? current?.info.trackID : nil
        }
        if keepTrack, var c = current {
            // Until the new segment is heard, the position is the seek target.
            c.info.fileStartMicros = max(0, startMicros)
            c.boundary = SegmentBoundary(segmentID: 0, epoch: sinkWorker.heard().epoch, frame: 0)
            current = c
        } else {
            current = nil
        }
        unparkWorkers()
    }

    private func parkWorkers() {
        decodeWorker.park()
        sinkWorker.park()
        // What the sink said before the park is about the old epoch, except the device's own
        // events and failures: keep those for the loop.
        sinkWorker.takeEvents { event in
            switch event {
            case .device, .failed: outputEvents.append(event)
            case .segmentWritten, .starving, .fed, .ended: break
            }
        }
        boundaries.removeAll()
        endReached = false
        starvingSince = nil
        ring.reset()
        markers.reset()
        sinkWorker.flushWhileParked()
        decodeWorker.segments.withLock { $0.removeAll() }
        decodeWorker.dropCurrent.store(true, ordering: .releasing)
    }

    private func unparkWorkers() {
        stoppedParked = false
        decodeWorker.unpark()
        sinkWorker.unpark()
    }

    private func skip(to position: Int?, reason: FinishReason) {
        if let c = current { finish(c.info, reason: reason) }
        current = nil
        guard let position else {
            stop()
            return
        }
        if status == .stopped || status == .complete { status = .loading }
        reposition(to: position, startMicros: 0, keepTrack: false)
        publishState()
    }

    private func stop() {
        if let c = current { finish(c.info, reason: .stopped) }
        // Not yet heard after a skip: the track being loaded is the place to come back to.
        let position = current?.info.orderPosition ?? loadingPosition ?? 0
        parkWorkers()
        stoppedParked = true
        loadingPosition = position
        // Play starts the track again from its beginning, as a new track: forget a pending seek.
        cursor.withLock {
            $0.next = position
            $0.startMicros = 0
            $0.reuseTrackID = nil
        }
        current = nil
        status = .stopped
        sinkWorker.setPaused(false)
        publishState()
        publishNowPlaying()
    }

    // MARK: - Commands

    private func handle(_ command: PlayerCommand, from source: CommandSource) {
        let who = if case .plugin(let name) = source { " (from \(name))" } else { "" }
        switch command {
        case .play: play()
        case .pause: pause()
        case .toggle: status == .playing || status == .loading || status == .stalled ? pause() : play()
        case .next:
            // After a skip whose track is not heard yet, "next" counts from that track: pressing
            // it twice skips two tracks.
            let loading = status == .stopped || status == .complete ? nil : loadingPosition
            guard let from = current?.info.orderPosition ?? loading,
                let next = cursor.withLock({ $0.queue.position(after: from) })
            else {
                message("motet: no next track\(who)")
                return
            }
            if var limiter = skipLimiter {
                let now = monotonicMicros()
                guard limiter.left(at: now) > 0 else {
                    let wait = (limiter.nextFreeMicros(at: now) ?? 0) / 60_000_000 + 1
                    message("motet: skip refused\(who): no skip left (--skip-limit); next one in \(wait) min")
                    return
                }
                limiter.record(at: now)
                skipLimiter = limiter
            }
            skip(to: next, reason: .skipped)
        case .previous:
            guard let c = current else { return }
            if (elapsedMicros() ?? 0) > 3_000_000 {
                reposition(to: c.info.orderPosition, startMicros: 0, keepTrack: true)
                publishNowPlaying()
            } else {
                let previous = cursor.withLock { $0.queue.position(before: c.info.orderPosition) } ?? c.info.orderPosition
                skip(to: previous, reason: .skipped)
            }
        case .stop:
            if status != .stopped { stop() }
        case .like, .dislike, .unlike:
            guard let c = current else { return }
            let rating: FeedbackStore.Rating? = command == .like ? .liked : command == .dislike ? .disliked : nil
            liked = rating == .liked
            disliked = rating == .disliked
            do {
                try feedback?.set(
                    rating, path: c.info.path, title: c.info.metadata.title, artists: c.info.metadata.artists,
                    album: c.info.metadata.album)
            } catch {
                message("motet: \(error)")
            }
            publishNowPlaying()
            if command == .dislike, nextEnabledNow.load(ordering: .relaxed) {
                handle(.next, from: source)
            }
        case .seekRelative(let offset):
            guard current != nil else { return }
            seek(to: (elapsedMicros() ?? 0) + offset)
        case .seekAbsolute(let position):
            guard current != nil else { return }
            seek(to: position)
        case .setVolume(let percent):
            volume = max(0, min(100, percent))
            volumeNow.store(volume, ordering: .relaxed)
            sinkWorker.setVolume(Float(volume) / 100)
            publishState()
        case .quit:
            if let c = current { finish(c.info, reason: .stopped) }
            current = nil
            status = .stopped
            publishNowPlaying()
            publishState()
            quitRequested = true
        }
    }

    private func seek(to target: Int64) {
        guard let c = current else { return }
        guard c.info.canSeek else {
            message("motet: cannot seek in \(c.info.path): the file is not seekable (a damaged chain)")
            return
        }
        var position = max(0, target)
        if let d = c.info.durationMicros, position >= d {
            // Seeking past the end is a skip to what follows.
            if let next = cursor.withLock({ $0.queue.position(after: c.info.orderPosition) }) {
                skip(to: next, reason: .skipped)
                return
            }
            position = max(0, d - 1000)
        }
        reposition(to: c.info.orderPosition, startMicros: position, keepTrack: true)
        publishNowPlaying()
    }

    private func play() {
        switch status {
        case .paused, .interrupted:
            interruption = nil
            sinkWorker.setPaused(false)
            status = current == nil ? .loading : .playing
        case .stopped, .complete:
            status = .loading
            unparkWorkers()
        default:
            return
        }
        publishState()
        publishNowPlaying()
    }

    private func pause() {
        guard status == .playing || status == .loading || status == .stalled || status == .interrupted else { return }
        sinkWorker.setPaused(true)
        status = .paused
        publishState()
        publishNowPlaying()
    }

    // MARK: - Reports from the decoder

    private func handle(_ report: DecoderReport) {
        switch report {
        case .openFailed(let path, _, let text, let code):
            message("motet: \(text)")
            events(.decodeError(DecodeErrorReport(code: code, message: text, filePath: path, positionMicros: nil, trackID: 0)))
        case .decodeError(let trackID, let path, let text, let code, let position, let fatal):
            if fatal { failedTracks.insert(trackID) }
            message("motet: \(text)")
            events(.decodeError(DecodeErrorReport(code: code, message: text, filePath: path, positionMicros: position, trackID: trackID)))
        }
    }

    // MARK: - Interruptions and starvation

    /// Handles one event from the output side, in the order they happened.
    private func handle(_ event: OutputEvent) {
        switch event {
        case .segmentWritten(let boundary): boundaries.append(boundary)
        case .ended: endReached = true
        case .starving(let since): starvingSince = since / 1000
        case .fed: starvingSince = nil
        case .device(let event): handle(event)
        case .failed(let error): handle(error)
        }
    }

    private func handle(_ event: SinkEvent) {
        switch event {
        case .glitch:
            glitches += 1
            let now = monotonicMicros()
            if lastGlitchNotice.map({ now - $0 >= Self.glitchNoticeMicros }) ?? true {
                lastGlitchNotice = now
                message(
                    "motet: \(outputDescription) ran dry or was suspended (\(glitches) time\(glitches == 1 ? "" : "s") so far):"
                        + " a short gap may be heard; playback goes on")
            }
        case .corkRequested:
            if status == .playing || status == .loading || status == .stalled {
                sinkWorker.setPaused(true)
                status = .interrupted
                interruption = .corked
                events(.interruptionBegan(.corked))
                message("motet: interrupted by the sound server (another stream asked for the speakers)")
                publishState()
                publishNowPlaying()
            }
        case .uncorkRequested:
            if status == .interrupted && interruption == .corked {
                events(.interruptionEnded(.corked))
                play()
            }
        case .lost:
            if interruption != .deviceLost && status != .stopped && status != .complete {
                interruption = .deviceLost
                events(.interruptionBegan(.deviceLost))
                message("motet: lost \(outputDescription); will resume when it is back")
                if status == .playing || status == .loading { status = .stalled }
                publishState()
            }
        case .restored:
            if interruption == .deviceLost {
                interruption = nil
                events(.interruptionEnded(.deviceLost))
                message("motet: \(outputDescription) is back; resuming")
                // What was written to the dead stream was never heard: go back to what was.
                if let c = current, let heard = elapsedMicros() {
                    reposition(to: c.info.orderPosition, startMicros: heard, keepTrack: true)
                }
                if status == .stalled { status = .playing }
                publishState()
                publishNowPlaying()
            }
        }
    }

    /// What the output is, for a message: "the PulseAudio server", "the ALSA device".
    private var outputDescription: String {
        switch sink.name {
        case "pulse": "the PulseAudio server"
        case "alsa": "the ALSA device"
        default: "the \(sink.name) output"
        }
    }

    /// Shows an error from the sink (the same line once in a row); an error that ends playback
    /// stops the player.
    private func handle(_ error: OutputError) {
        guard !outputFailed else { return }
        if error.description != lastOutputMessage {
            lastOutputMessage = error.description
            message(error.description)
        }
        if error.endsPlayback {
            outputFailed = true
            handle(.quit, from: .user)
        }
    }

    private func updateStarving() {
        let starving = starvingSince.map { monotonicMicros() - $0 > 500_000 } ?? false
        if starving && status == .playing {
            status = .stalled
            publishState()
        } else if !starving && status == .stalled && interruption == nil && current != nil {
            status = .playing
            publishState()
        }
    }
}
