/// The play order: the files, their order (shuffled or not), and whether it loops. Positions are
/// indexes into `order`.
struct PlayQueue: Sendable {
    private(set) var files: [String]
    private(set) var order: [Int]
    var loop: Bool
    /// Whether the order is shuffled.
    private(set) var shuffled: Bool

    init(files: [String], shuffle: Bool, loop: Bool) {
        self.files = files
        self.loop = loop
        shuffled = shuffle
        order = Array(files.indices)
        if shuffle { order.shuffle() }
    }

    /// Shuffles (or puts back in the order given) what comes after `position`; positions up to it
    /// keep their files.
    mutating func setShuffled(_ shuffle: Bool, keepingThrough position: Int) {
        shuffled = shuffle
        let kept = min(max(position + 1, 0), order.count)
        var rest = Array(order[kept...])
        if shuffle { rest.shuffle() } else { rest.sort() }
        order.replaceSubrange(kept..., with: rest)
    }

    /// Adds `path` at the end of the order; returns its position.
    mutating func append(_ path: String) -> Int {
        files.append(path)
        order.append(files.count - 1)
        return order.count - 1
    }

    var isEmpty: Bool { order.isEmpty }

    /// How many tracks the order has.
    var count: Int { order.count }

    func path(at position: Int) -> String { files[order[position]] }

    func position(after position: Int) -> Int? {
        if position + 1 < order.count { return position + 1 }
        return loop && !order.isEmpty ? 0 : nil
    }

    func position(before position: Int) -> Int? {
        if position > 0 { return position - 1 }
        return loop && !order.isEmpty ? order.count - 1 : nil
    }
}

/// What the decoder thread reads to know what to decode next; shared under a lock with the
/// control thread (the sink thread never touches it).
struct DecodeCursor: Sendable {
    var queue: PlayQueue
    /// Position of the next track to decode, nil when the queue is done.
    var next: Int?
    var startMicros: Int64 = 0
    /// Reuse this track id for the next open (a seek reopens the same track).
    var reuseTrackID: UInt64?
    /// Bumped by each reposition; stamped on what the decoder opens.
    var generation = 0
    /// The position the decoder took last; nil after a reposition until it takes one.
    var lastTaken: Int?
    /// Tracks taken in a row that had nothing to play: passed over as disliked, or unopenable.
    private(set) var unplayableInARow = 0
    /// How many of those were passed over as disliked.
    private(set) var dislikedInARow = 0

    /// A track opened and plays: the count of tracks with nothing to play starts again.
    mutating func opened() {
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
        // the queue ends there anyway).
        guard dislikedInARow > 0, unplayableInARow == queue.count else { return false }
        next = nil
        return true
    }

    mutating func take() -> TrackRequest? {
        guard let position = next else { return nil }
        let request = TrackRequest(
            orderPosition: position, path: queue.path(at: position), startMicros: startMicros, reuseTrackID: reuseTrackID,
            generation: generation)
        startMicros = 0
        reuseTrackID = nil
        lastTaken = position
        next = queue.position(after: position)
        return request
    }
}

/// `--skip-limit N/MINUTES`: like a licensed radio service, at most N skips in any window.
struct SkipLimiter: Sendable {
    let count: Int
    let windowMicros: Int64
    private var skips: [Int64] = []

    init(count: Int, minutes: Int) {
        self.count = count
        windowMicros = Int64(minutes) * 60_000_000
    }

    mutating func left(at now: Int64) -> Int {
        skips.removeAll { now - $0 >= windowMicros }
        return max(0, count - skips.count)
    }

    mutating func record(at now: Int64) { skips.append(now) }

    /// When the oldest skip in the window expires.
    func nextFreeMicros(at now: Int64) -> Int64? { skips.first.map { $0 + windowMicros - now } }
}
