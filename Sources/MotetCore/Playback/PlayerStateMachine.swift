import MotetConfiguration
import MotetEvents
import MotetLikes
import MotetNetwork
import MotetSystem

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
        /// The track's time heard in segments (links, positions) before the current one.
        var heardBefore: Duration = .zero
        /// When the track's first frame was heard (Unix µs).
        var firstHeardAt: Int64?
        /// The track's rating, read from the likes store when it became current.
        var liked = false
        var disliked = false
    }

    /// What was last said: a state is published only when it changed, an output error once, a
    /// glitch at most every `glitchNoticeInterval`, the status line once per second shown.
    struct Said {
        var state: PlaybackState?
        /// The elapsed time the status line last showed, in whole display intervals (seconds).
        var displayedTick: Int64?
        var outputError = ""
        var glitchNoticeAt: MonotonicInstant?
        /// Glitches so far (said in the notice).
        var glitches = 0
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
    let now: () -> MonotonicInstant
    /// Wall-clock time, Unix microseconds (for the track events' timestamps).
    let wallNow: () -> Int64
    let out: Outputs
    let answers: CommandAnswers
    let feedback: FeedbackStore?
    var queue: PlayQueue

    /// What the player is doing, with the data each phase has (`PlayerPhase`).
    var phase: PlayerPhase
    /// What the ABI reports: derived from `phase`, never stored.
    var status: PlaybackStatus { phase.status }
    /// Quit was asked, or the queue ended: the player's loop ends.
    var isFinished: Bool { phase.isFinished }
    var current: Current?
    var ahead: [Ahead] = []
    /// Boundaries whose segment's "opened" report has not been taken yet.
    var earlyBoundaries: [UInt64: SegmentBoundary] = [:]
    var volume: Int
    /// The output is silenced (`PlayerCommand.toggleMute`); `volume` is kept.
    var muted = false
    /// The tracks passed over as disliked that were named already: said once a run, not on
    /// every pass of a `--loop`.
    var namedPassedOver: Set<String> = []
    var skipLimiter: SkipLimiter?
    var failedTracks: Set<UInt64> = []
    /// The decoder's generation (`DecodeCursor.generation`) as the last reposition returned it.
    /// The rule: every report the decoder makes carries the generation it was made in, and one
    /// that is not this one is from before the last reposition and is dropped. The only counter of
    /// its kind; the sink's `epoch` counts output streams, for heard positions.
    var generation = 0
    /// What the machine last told each surface, so that it does not say it again.
    var said = Said()
    /// A screen shows the status line (see `Player.setDisplayShown`).
    var displayShown = true
    /// Why next is not enabled now (nil: it is); see `refreshNextEnabled`.
    var nextDisabledReason: NextDisabledReason? = .lastTrack
    var nextEnabled: Bool { nextDisabledReason == nil }
    /// Why the next track to become current does: set by what repositions.
    var startReason: StartReason = .natural
    /// A manual skip crossfading (`skipCrossfading`); nil otherwise.
    var skipping: Skipping?
    /// A pause faded out of this track: its next segment goes on from there (`pauseFading`).
    var resumesFaded: UInt64?
    /// A pause faded out of a stream, which is opened again at this time of it on play
    /// (`resumeStream`).
    var resumesAt: Duration?

    /// What the exit status is made from: something heard, the output or a stream failed for good…
    var outcome = Player.Outcome()

    static let stall: Duration = .milliseconds(500)
    static let previousRestartsAfter: Duration = .seconds(3)
    static let glitchNoticeInterval: Duration = .seconds(10)
    /// How often to look at the heard position while a boundary is due but the output does not
    /// say how fast it advances.
    static let boundaryPoll: Duration = .milliseconds(100)
    static let maxDeferred = 8
    /// How long after a second's boundary the status line is redrawn (so it shows the new second).
    static let displayLate: Duration = .milliseconds(2)
    static let maxEarlyBoundaries = 64

    init(
        configuration: PlayerConfiguration, queue: PlayQueue, engine: any PlaybackEngine, answers: CommandAnswers,
        feedback: FeedbackStore?, now: @escaping () -> MonotonicInstant, wallNow: @escaping () -> Int64, outputs: Outputs
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
        phase = .loading(Underway(opening: Opening(position: queue.isEmpty ? nil : 0)))
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
    /// end of the queue if the output reached it.
    ///
    /// Two lanes, one story. The sink thread cannot post to the inbox: the inbox's lock is taken
    /// by plugin and key threads, and the audio thread never waits on such a lock; its events go
    /// through the lock-free `OutputEventQueues`. Why taking the lanes in this order tells the story
    /// as it happened:
    /// - The decoder posts a segment's "opened" report before it pushes the segment's marker, and
    ///   the sink writes the segment (and says so) only after taking that marker. So a boundary
    ///   never comes a turn before its report; in the same turn it is taken first and waits in
    ///   `earlyBoundaries` for the report further down the same batch. One left there belongs to
    ///   a segment from before a reposition, and goes with the next one.
    /// - The end is pushed after the last marker, so its reports are in this batch or earlier: the
    ///   end is handled after the inbox. An end that a command of this batch has made moot (a
    ///   previous, a seek: a new generation) is dropped.
    /// - "Fed" is handled after the inbox too: whether the current segment or the next one is fed
    ///   again is known once the reports are in (`resumeAfterStall`).
    /// - The device's news (a cork, a loss) and a command in one turn come from sources that
    ///   cannot see each other: either order is a true one.
    /// Tests/MotetCoreTests/Playback/InboxInterleavingTests.swift splits one story into turns in
    /// each of these ways and wants the same track events.
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
                phase.underway?.drySince = nil
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
            // Stopped, the decoder holds; its segments are taken when play releases it.
            guard opened.generation == generation, phase.underway != nil else { return }
            let info = arrived(opened)
            let boundary = earlyBoundaries.removeValue(forKey: info.segmentID)
            if let opening = phase.opening {
                phase.underway?.opening = nil
                makeCurrent(info, boundary: boundary, heard: false)
                if opening.seek {
                    out.events(.seeked(Seeked(trackID: info.trackID, positionMicros: info.fileStart.microseconds)))
                }
                applyDeferred(opening.deferred)
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
        case .playlistRead(let request, let entries, let lines):
            placeEntries(of: request, entries, lines: lines)
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
}
