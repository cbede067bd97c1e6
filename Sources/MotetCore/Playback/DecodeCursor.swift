import MotetConfiguration
import MotetSystem

/// What the decoder thread reads to know what to decode next; shared under a lock
/// (`Locked<DecodeCursor>` in `WorkerEngine`) between the control thread and the decoder thread
/// only. `queue` is the control thread's play order as it last gave it: the decoder never changes
/// it. When the decoder finds that an entry is a playlist, it waits at it (`awaitingEntries`) until
/// the control thread has put the playlist's entries in its place (`entriesPlaced`).
struct DecodeCursor: Sendable {
    var queue: PlayQueue
    /// Position of the next track to decode, nil when the queue is done.
    var next: Int?
    var start: Duration = .zero
    /// Reuse this track id for the next open (a seek reopens the same track).
    var reuseTrackID: UInt64?
    /// Bumped by each reposition; stamped on what the decoder opens and reports. The one
    /// generation counter: a report whose generation is not the state machine's is from before
    /// the last reposition, and is dropped.
    var generation = 0
    /// The position the decoder took last; nil after a reposition until it takes one.
    var lastTaken: Int?
    /// A previous is under way: a track passed over is passed over towards the start, until one
    /// opens (then what follows it comes next again).
    var backwards = false
    /// The entry taken last is a playlist whose entries the control thread has not placed yet:
    /// nothing is taken until it has (or a reposition points elsewhere).
    var awaitingEntries = false
    /// What the decoder plays of the old position first, after a reposition with a fade.
    var cut: FadeFrom?
    /// A stop with a fade: the fade plays, then nothing is taken until the control thread releases
    /// the decoder (`WorkerEngine.release`).
    var holding = false
    /// Tracks taken in a row that had nothing to play: passed over as disliked, or unopenable.
    private(set) var unplayableInARow = 0
    /// How many of those were passed over as disliked.
    private(set) var dislikedInARow = 0

    /// What the decoder does next.
    enum Next: Equatable {
        case track(TrackRequest)
        /// Wait for the control thread (a playlist's entries); it wakes the decoder.
        case wait
        /// The queue is done.
        case end
    }

    /// A track opened and plays: the count of tracks with nothing to play starts again.
    mutating func opened() {
        if backwards, let taken = lastTaken { next = queue.position(after: taken) }
        backwards = false
        unplayableInARow = 0
        dislikedInARow = 0
    }

    /// The track taken last had nothing to play (`disliked`: passed over; else it could not be
    /// opened). When a whole pass of the queue went so, nothing more is taken (the output then
    /// ends, also under `--loop`: no busy loop) and this returns true.
    mutating func unplayable(disliked: Bool) -> Bool {
        unplayableInARow += 1
        if disliked { dislikedInARow += 1 }
        // Exactly a whole pass: said once (with --loop nothing more is taken after it; without,
        // the queue ends there anyway, and each file that cannot be opened has said why: a line
        // more is said only when a track was passed over as disliked).
        guard dislikedInARow > 0 || queue.loop, unplayableInARow == queue.count else { return false }
        next = nil
        return true
    }

    /// The decoder's question: a track, a wait or the end.
    mutating func advance() -> Next {
        if awaitingEntries || holding { return .wait }
        return take().map(Next.track) ?? .end
    }

    mutating func take() -> TrackRequest? {
        guard let position = next else { return nil }
        let request = TrackRequest(
            orderPosition: position, path: queue.path(at: position), start: start, reuseTrackID: reuseTrackID,
            generation: generation, origin: queue.origin(at: position), expand: queue.expandsWhenPlayed(at: position))
        start = .zero
        reuseTrackID = nil
        lastTaken = position
        // Backwards off the start of a queue that does not loop: forwards again from there.
        next = backwards ? queue.position(before: position) ?? queue.position(after: position) : queue.position(after: position)
        return request
    }

    /// Decoder thread: the entry `request` took is a playlist, read; wait for the control thread
    /// to place its entries. False (nothing to wait for, nothing to report) when a reposition
    /// came since it was taken.
    mutating func awaitEntries(of request: TrackRequest) -> Bool {
        guard request.generation == generation, lastTaken == request.orderPosition else { return false }
        awaitingEntries = true
        return true
    }

    /// Control thread: the playlist at `position` was replaced by its entries in `queue` (the
    /// control thread's, now); the first of them (or what followed it) is taken next, from
    /// `start` (where the playlist was to start, `--start`).
    mutating func entriesPlaced(at position: Int, in queue: PlayQueue, start: Duration) {
        self.queue = queue
        guard awaitingEntries else { return }
        awaitingEntries = false
        self.start = start
        // What follows the entry before it (for a later change of the queue).
        lastTaken = position > 0 ? position - 1 : nil
        next = position < queue.count ? position : queue.position(after: position - 1)
    }
}
