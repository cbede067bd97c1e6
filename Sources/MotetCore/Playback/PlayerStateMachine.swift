import MotetConfiguration
import MotetEvents

/// The player's state machine: all playback state and its only writer. It lives on the control
/// thread (it is deliberately not `Sendable`), takes every message in order through `handle(_:)`,
/// reconciles with the clock and the heard position in `tick()`, and says in `nextDeadline()` when
/// it next needs to look. It never sleeps, polls or touches a thread: effects go through the
/// `PlaybackEngine`, news through `events`, `display` and `message`. Tested directly with a scripted
/// engine and clock (Tests/MotetCoreTests/Playback).
final class PlayerStateMachine {
    /// The track that is current, and how far the output has got with it.
    struct Current {
        var info: SegmentInfo
        /// Where its current segment starts in the output, once written.
        var boundary: SegmentBoundary?
        /// Its first frame (of the current segment) has been heard.
        var heard: Bool
    }

    /// A segment decoded ahead of what is heard, waiting for its turn.
    struct Ahead {
        var info: SegmentInfo
        var boundary: SegmentBoundary?
    }

    /// Callbacks to the outside; each must only enqueue or print, never block.
    struct Outputs {
        /// Every event for the delegates.
        var events: (PlayerEvent) -> Void
        /// The status line's content.
        var display: (PlayerDisplay) -> Void
        /// One human line (errors, notices).
        var message: (String) -> Void
    }

    let configuration: PlayerConfiguration
    let engine: any PlaybackEngine
    let now: () -> Int64
    /// Wall-clock time, Unix microseconds (for the track events' timestamps).
    let wallNow: () -> Int64
    let out: Outputs
    let answers: CommandAnswers
    let feedback: FeedbackStore?
    var queue: PlayQueue

    var status: PlaybackStatus = .loading
    var current: Current?
    var ahead: [Ahead] = []
    /// Boundaries whose segment's "opened" report has not been taken yet.
    var earlyBoundaries: [UInt64: SegmentBoundary] = [:]
    var liked = false
    var disliked = false
    var volume: Int
    /// The output is silenced (`PlayerCommand.toggleMute`); `volume` is kept.
    var muted = false
    /// The tracks passed over as disliked that were named already: said once a run, not on
    /// every pass of a `--loop`.
    var namedPassedOver: Set<String> = []
    var skipLimiter: SkipLimiter?
    var failedTracks: Set<UInt64> = []
    var interruption: InterruptionReason?
    /// The decoder generation whose segments count; older reports are stale.
    var generation = 0
    /// After a reposition, the first segment the decoder opens becomes current at once, before it
    /// is heard: paused navigation shows the new track (or position) on every surface.
    var awaitingFirstSegment = true
    /// The play-order position being loaded after a skip or a stop while its track is not open yet
    /// (a second next counts from it; play after stop starts it).
    var loadingPosition: Int?
    /// Commands for "the current track" that arrived while the next one was being opened.
    var deferred: [(PlayerCommand, CommandSource)] = []
    /// When the ring ran dry (monotonic µs), nil while samples flow.
    var starvingSince: Int64?
    var lastGlitchNotice: Int64?
    var glitches = 0
    var lastOutputMessage = ""
    var lastStateEvent: PlaybackState?
    /// The elapsed time the status line last showed, in whole display intervals (seconds).
    var lastDisplayedTick: Int64?
    /// A screen shows the status line (see `Player.setDisplayShown`).
    var displayShown = true
    var nextEnabled = false
    /// Why the next track to become current does: set by what repositions.
    var startReason: StartReason = .natural
    /// The current track's time heard in segments (links, positions) before the current one.
    var heardBefore: Int64 = 0
    /// When the current track's first frame was heard (Unix µs).
    var firstHeardAt: Int64?
    /// A seek was asked for: the reopened segment's position is announced as `seeked`.
    var seekPending = false

    /// What the exit status is made from: something heard, the output or a stream failed for good…
    var outcome = Player.Outcome()
    /// Quit was asked, or the queue ended: the player's loop ends.
    var isFinished = false

    static let stallMicros: Int64 = 500_000
    static let previousRestartsAfterMicros: Int64 = 3_000_000
    static let glitchNoticeMicros: Int64 = 10_000_000
    /// How often to look at the heard position while a boundary is due but the output does not
    /// say how fast it advances.
    static let boundaryPollMicros: Int64 = 100_000
    static let maxDeferred = 8
    /// How long after a second's boundary the status line is redrawn (so it shows the new second).
    static let displayLateMicros: Int64 = 2_000
    static let maxEarlyBoundaries = 64

    init(
        configuration: PlayerConfiguration, queue: PlayQueue, engine: any PlaybackEngine, answers: CommandAnswers,
        feedback: FeedbackStore?, now: @escaping () -> Int64, wallNow: @escaping () -> Int64, outputs: Outputs
    ) {
        self.configuration = configuration
        self.queue = queue
        self.engine = engine
        self.answers = answers
        self.now = now
        self.wallNow = wallNow
        out = outputs
        volume = max(0, min(100, configuration.volume))
        if let limit = configuration.skipLimit { skipLimiter = SkipLimiter(count: limit.count, minutes: limit.minutes) }
        self.feedback = feedback
        loadingPosition = queue.isEmpty ? nil : 0
        engine.setVolume(Float(volume) / 100)
    }

    /// Publishes the first state (loading).
    func start() {
        publishState()
    }

    // MARK: - Messages

    /// Takes one message, in order.
    func handle(_ message: PlayerMessage) {
        switch message {
        case .command(let command, let source, let track): handle(command, from: source, track: track)
        case .decoder(let report): handle(report)
        case .output(let event): handle(event)
        case .display(let shown):
            guard shown != displayShown else { return }
            displayShown = shown
            if shown { showDisplay() }  // at once, not at the next second
        }
    }

    /// Takes one batch: the output events first (they were taken first), then the inbox, then the
    /// end of the queue if the output reached it. A segment's "opened" report is posted before the
    /// sink can say it was written, so a boundary may come before its segment (it waits in
    /// `earlyBoundaries`), and the end before the reports of the last segments. An end that a
    /// command of this batch has made moot (a previous, a seek) is dropped.
    /// Returns the messages of `inbox` left unhandled because the machine finished first.
    @discardableResult
    func handle(inbox: [PlayerMessage], output: [OutputEvent]) -> [PlayerMessage] {
        var ended = false
        var fed = false
        for e in output where !isFinished {
            switch e {
            case .ended:
                ended = true
            case .fed:
                // Whether the current segment or the next one is fed again is known once the inbox
                // has brought the decoder's reports (`resumeAfterStall`).
                starvingSince = nil
                fed = true
            default:
                if case .starving = e { fed = false }
                handle(e)
            }
        }
        let before = generation
        var handled = 0
        for m in inbox where !isFinished {
            handle(m)
            handled += 1
        }
        if fed, !isFinished { resumeAfterStall() }
        if ended, generation == before, !isFinished { handle(OutputEvent.ended) }
        if !isFinished { tick() }
        return Array(inbox.dropFirst(handled))
    }

    private func handle(_ report: DecoderReport) {
        switch report {
        case .segmentOpened(let opened):
            guard opened.generation == generation, status != .stopped else { return }
            let info = arrived(opened)
            let boundary = earlyBoundaries.removeValue(forKey: info.segmentID)
            if awaitingFirstSegment {
                awaitingFirstSegment = false
                makeCurrent(info, boundary: boundary, heard: false)
                if seekPending {
                    seekPending = false
                    out.events(.seeked(Seeked(trackID: info.trackID, positionMicros: info.fileStartMicros)))
                }
                applyDeferred()
                advanceHeard(everything: false)
            } else {
                ahead.append(Ahead(info: info, boundary: boundary))
            }
        case .openFailed(let path, _, let error, let listedIn):
            if WebAddress.looksLikeURL(path) { outcome.addressFailed = true }
            let text = DecoderReport.line(error, path: path, listedIn: listedIn)
            out.message("motet: \(text)")
            out.events(
                .decodeError(
                    DecodeErrorReport(code: error.code, message: text, filePath: WebAddress.shown(path), positionMicros: nil, trackID: 0)))
        case .decodeError(let trackID, let path, let error, let position, let fatal):
            if fatal { failedTracks.insert(trackID) }
            // A stream that ends in a fatal error was given up on: lost and not back in time, or broken.
            if fatal, WebAddress.looksLikeURL(path) { outcome.streamGivenUp = true }
            let text = DecoderReport.line(error, path: path)
            out.message("motet: \(text)")
            out.events(
                .decodeError(
                    DecodeErrorReport(
                        code: error.code, message: text, filePath: WebAddress.shown(path), positionMicros: position, trackID: trackID)))
        case .notice(let notice, let url):
            out.message("motet: \(notice.line(url: url))")
        case .queueExpanded(let lines):
            for line in lines { out.message(line) }
            adoptQueue(engine.changeQueue { _, _ in })
            refreshNextEnabled()  // the playlist's entries may follow the current track
        case .passedOver(let path, let title, let reportGeneration):
            // Not a skip: the skip limit never sees it, and nothing became current.
            guard reportGeneration == generation, namedPassedOver.insert(path).inserted else { return }
            out.message(DislikedTracks.message(path: WebAddress.shown(path), title: title))
        case .nothingLeft(let disliked, let total, let reportGeneration):
            // The decoder stops; the output ends what it has and the queue finishes.
            guard reportGeneration == generation else { return }
            out.message(DislikedTracks.nothingLeftMessage(disliked: disliked, total: total))
        }
    }

    // MARK: - Time

    /// Reconciles with the heard position and the clock: segments heard, stalls, the skip window,
    /// the status line.
    func tick() {
        advanceHeard(everything: false)
        let t = now()
        if let since = starvingSince, t - since >= Self.stallMicros, status == .playing {
            status = .stalled
            publishState()
            showDisplay()  // the status line shows the stall at once, not at the next second
        }
        refreshNextEnabled()
        if let interval = displayInterval, status == .playing,
            let elapsed = elapsedMicros(), elapsed / interval != lastDisplayedTick
        {
            showDisplay()
        }
    }

    /// How often the status line is refreshed now: never while no screen shows it.
    private var displayInterval: Int64? { displayShown ? configuration.displayIntervalMicros : nil }

    /// When `tick()` next has something to do (monotonic µs), or nil: only a message can change
    /// anything.
    func nextDeadline() -> Int64? {
        let t = now()
        var deadlines: [Int64] = []
        if let since = starvingSince, status == .playing { deadlines.append(since + Self.stallMicros) }
        if let interval = displayInterval, status == .playing, let elapsed = elapsedMicros() {
            // Just after the elapsed time reaches its next whole second: the clock ticks evenly.
            deadlines.append(t + interval - elapsed % interval + Self.displayLateMicros)
        }
        if let due = boundaryDue(at: t) { deadlines.append(due) }
        if let limiter = skipLimiter, let free = limiter.nextFreeMicros(at: t), !nextEnabled { deadlines.append(t + free) }
        return deadlines.min()
    }

    /// The next segment boundary still to be heard and when it will be, if the output is moving.
    private func boundaryDue(at t: Int64) -> Int64? {
        guard status == .playing || status == .loading || status == .stalled else { return nil }
        let pending: SegmentBoundary? =
            if let c = current, !c.heard, let b = c.boundary { b } else { ahead.first?.boundary }
        guard let b = pending else { return nil }
        let h = engine.heard()
        if isHeard(b, h) { return t }
        // Standing still, or the heard position is from before the segment's stream was opened.
        if h.framesPerSecond == 0 || h.epoch != b.epoch { return t + Self.boundaryPollMicros }
        return h.atNanos / 1000 + (b.frame - h.frames) * 1_000_000 / h.framesPerSecond
    }

    // MARK: - What is heard

    private func isHeard(_ b: SegmentBoundary, _ h: HeardNow) -> Bool {
        b.epoch < h.epoch || (b.epoch == h.epoch && (h.framesPerSecond < 0 || h.frames >= b.frame))
    }

    /// Moves on to every segment whose first frame has been heard (`everything`: the output has
    /// drained, so all that was written has been).
    func advanceHeard(everything: Bool) {
        let h = engine.heard()
        if var c = current, !c.heard, let b = c.boundary, everything || isHeard(b, h) {
            c.heard = true
            current = c
            heardCurrent()
        }
        while let first = ahead.first, let b = first.boundary, everything || isHeard(b, h) {
            ahead.removeFirst()
            makeCurrent(first.info, boundary: b, heard: true)
        }
    }

    /// Makes `info` the current segment: a new track (the previous one finished) or the next link
    /// or position of the same track.
    func makeCurrent(_ info: SegmentInfo, boundary: SegmentBoundary?, heard: Bool) {
        let isNewTrack = current?.info.trackID != info.trackID
        if isNewTrack, current != nil {
            finishCurrent(reason: .completed, endedAt: boundary)
        } else {
            heardBefore += segmentHeardMicros(until: boundary)
        }
        let wrapped = current.map { info.orderPosition < $0.info.orderPosition } ?? false
        current = Current(info: info, boundary: boundary, heard: heard)
        loadingPosition = nil
        answers.update(currentTrack: info.trackID)
        if isNewTrack {
            heardBefore = 0
            firstHeardAt = nil
            var reason = startReason
            if reason == .natural && wrapped && queue.loop { reason = .loop }
            startReason = .natural
            out.events(.trackStarted(TrackStarted(track: record(info), reason: reason, startedAtUnixMicros: wallNow())))
            let m = info.metadata
            let rating = feedback?.rating(path: info.filePath, title: m.title, artists: m.artists, album: m.album)
            liked = rating == .liked
            disliked = rating == .disliked
            for warning in m.warnings { out.message("motet: \(info.path): \(warning)") }
        }
        if heard {
            heardCurrent()
        } else {
            refreshNextEnabled(publishing: false)
            publishState()
            publishNowPlaying()
        }
    }

    /// The current segment's first frame was just heard.
    private func heardCurrent() {
        outcome.playedAnything = true
        if firstHeardAt == nil { firstHeardAt = wallNow() }
        if status == .loading || status == .stalled && interruption == nil {
            status = .playing
            // Sound is heard: the ring was fed, whether or not the sink's `.fed` is taken yet (it
            // may come a turn later); its old starvation must not make a second stall at once.
            starvingSince = nil
        }
        refreshNextEnabled(publishing: false)
        publishState()
        publishNowPlaying()
    }

    /// The current track is over: `trackFinished` with what was heard of it. `current` stays; the
    /// caller replaces or clears it.
    /// `endedAt`: where the next segment starts, when known (the sink may be past it already).
    func finishCurrent(reason: FinishReason, endedAt end: SegmentBoundary? = nil) {
        guard let c = current else { return }
        let info = c.info
        let ok = !failedTracks.contains(info.trackID)
        let position = elapsedMicros() ?? info.fileStartMicros
        let track = record(info)
        out.events(
            .trackFinished(
                TrackFinished(
                    trackID: info.trackID, filePath: info.filePath, title: track.title, successfully: ok,
                    reason: ok ? reason : .failed, track: track, heardMicros: heardBefore + segmentHeardMicros(until: end),
                    positionMicros: position, firstHeardUnixMicros: firstHeardAt)))
        heardBefore = 0
        firstHeardAt = nil
    }

    /// What has been heard of the current segment, in microseconds: up to the heard position, but
    /// never past where the next segment starts (`end`, else the first segment waiting ahead) —
    /// the sink may have played on into the next ones before the control thread looks.
    func segmentHeardMicros(until end: SegmentBoundary? = nil) -> Int64 {
        guard let c = current, c.heard, let b = c.boundary else { return 0 }
        let h = engine.heard()
        let rate = Int64(max(1, c.info.format.sampleRate))
        if h.epoch == b.epoch {
            var frames = h.frames
            if let next = end ?? ahead.first?.boundary, next.epoch == b.epoch { frames = min(frames, next.frame) }
            return max(0, frames - b.frame) * 1_000_000 / rate
        }
        // The output was reopened since (a format change): the segment was played out.
        return max(0, (c.info.durationMicros ?? c.info.fileStartMicros) - c.info.fileStartMicros)
    }

    /// The queue has been played to its end.
    func finishQueue() {
        advanceHeard(everything: true)
        finishCurrent(reason: .completed)
        current = nil
        status = .complete
        publishNowPlaying()
        publishState()
        isFinished = true
    }

    /// What has been heard of the current track, in microseconds.
    func elapsedMicros() -> Int64? {
        guard let c = current else { return nil }
        var frames: Int64 = 0
        if let b = c.boundary {
            let h = engine.heard()
            if h.epoch == b.epoch { frames = max(0, h.frames - b.frame) }
            // The output was reopened since (the next segment changed the format): played out.
            if h.epoch > b.epoch, let d = c.info.durationMicros { return d }
        }
        let rate = Int64(max(1, c.info.format.sampleRate))
        var elapsed = c.info.fileStartMicros + frames * 1_000_000 / rate
        if let d = c.info.durationMicros { elapsed = min(elapsed, d) }
        return elapsed
    }
}
