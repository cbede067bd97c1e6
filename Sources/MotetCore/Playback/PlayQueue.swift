import MotetConfiguration

/// The play order: the files, their order (shuffled or not), and whether it loops. Positions are
/// indexes into `order`.
///
/// An entry that turns out to be a playlist when it is played (a URL whose server answers with a
/// playlist's content type, or a file or URL given by OpenUri with a playlist's name) is replaced by the
/// playlist's entries (`replace(at:with:)`): the positions after it move. Each replacement makes a
/// new ``revision``; a position taken at an older revision is brought up to date with
/// ``translate(_:from:)`` (the decoder and the control thread each hold positions of their own).
struct PlayQueue: Sendable {
    private(set) var files: [String]
    private(set) var order: [Int]
    var loop: Bool
    /// Whether the order is shuffled.
    private(set) var shuffled: Bool
    /// The playlists each file came from (outermost first; remote ones by display URL): nesting
    /// and self-inclusion of a playlist expanded while playing are checked along the chain, and a
    /// file that cannot be played names the last. Keyed by index into `files`.
    private var origins: [Int: [String]] = [:]
    /// The titles playlists gave files (`InputExpander.PlayedTrack.title`). Keyed by index into `files`.
    private var titles: [Int: String] = [:]
    /// Files to read as an input is when played (a playlist's name makes them a playlist): what
    /// OpenUri gives. Indexes into `files`.
    private var expandWhenPlayed: Set<Int> = []
    /// Each replacement so far: where, and how many positions were added (-1: the entry was removed).
    private var replacements: [(position: Int, added: Int)] = []

    /// `titles`: what the playlists called the files (nil for most; may be shorter than `files`);
    /// `origins`: the playlists they were listed in (the same).
    init(files: [String], titles: [String?] = [], origins: [[String]] = [], shuffle: Bool, loop: Bool) {
        self.files = files
        for (index, title) in titles.enumerated() where index < files.count { self.titles[index] = title }
        for (index, origin) in origins.enumerated() where index < files.count && !origin.isEmpty { self.origins[index] = origin }
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

    /// Adds `path` at the end of the order; returns its position. `expand`: a URL to read as an
    /// input is read when it is played (a playlist's name makes it a playlist).
    mutating func append(_ path: String, expand: Bool = false) -> Int {
        files.append(path)
        order.append(files.count - 1)
        if expand { expandWhenPlayed.insert(files.count - 1) }
        return order.count - 1
    }

    /// Bumped by each `replace(at:with:)`.
    var revision: Int { replacements.count }

    /// The playlists the entry at `position` came from (see `origins`).
    func origin(at position: Int) -> [String] { origins[order[position]] ?? [] }

    /// The title a playlist gave the entry at `position`, if any.
    func title(at position: Int) -> String? { titles[order[position]] }

    /// Whether the entry at `position` is to be read as an input when played.
    func expandsWhenPlayed(at position: Int) -> Bool { expandWhenPlayed.contains(order[position]) }

    /// Replaces the entry at `position` by `entries` (each with the playlists it came from), in
    /// their order, where the entry was; no entries remove it.
    mutating func replace(at position: Int, with entries: [InputExpander.PlayedTrack]) {
        let index = order[position]
        expandWhenPlayed.remove(index)
        origins[index] = nil
        titles[index] = nil
        guard let first = entries.first else {
            order.remove(at: position)
            replacements.append((position, -1))
            return
        }
        files[index] = first.path
        var added: [Int] = []
        for (k, entry) in entries.enumerated() {
            let at = k == 0 ? index : files.count
            if k > 0 {
                files.append(entry.path)
                added.append(at)
            }
            if !entry.origin.isEmpty { origins[at] = entry.origin }
            titles[at] = entry.title
        }
        order.insert(contentsOf: added, at: position + 1)
        replacements.append((position, added.count))
    }

    /// A position of revision `old` in this revision: positions after a replaced entry move with
    /// its entries; the replaced entry's own position is its first entry's (or, when it was
    /// removed, what followed it). Nil stays nil.
    func translate(_ position: Int?, from old: Int) -> Int? {
        guard var p = position else { return nil }
        for r in replacements[min(old, replacements.count)...] where p > r.position { p += r.added }
        return p
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
    /// A previous is under way: a track passed over is passed over towards the start, until one
    /// opens (then what follows it comes next again).
    var backwards = false
    /// Tracks taken in a row that had nothing to play: passed over as disliked, or unopenable.
    private(set) var unplayableInARow = 0
    /// How many of those were passed over as disliked.
    private(set) var dislikedInARow = 0

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

    mutating func take() -> TrackRequest? {
        guard let position = next else { return nil }
        let request = TrackRequest(
            orderPosition: position, path: queue.path(at: position), startMicros: startMicros, reuseTrackID: reuseTrackID,
            generation: generation, queueRevision: queue.revision, origin: queue.origin(at: position),
            expand: queue.expandsWhenPlayed(at: position))
        startMicros = 0
        reuseTrackID = nil
        lastTaken = position
        // Backwards off the start of a queue that does not loop: forwards again from there.
        next = backwards ? queue.position(before: position) ?? queue.position(after: position) : queue.position(after: position)
        return request
    }
}

extension DecodeCursor {
    /// The entry `request` took is a playlist: it is replaced by `entries` and the first of them
    /// (or what followed it) is taken next. False (nothing changed) when the queue moved on since
    /// the entry was taken: a reposition, or another replacement.
    mutating func replaceTaken(_ request: TrackRequest, with entries: [InputExpander.PlayedTrack]) -> Bool {
        let p = request.orderPosition
        guard request.generation == generation, request.queueRevision == queue.revision, p < queue.count,
            queue.path(at: p) == request.path
        else { return false }
        queue.replace(at: p, with: entries)
        // Where the playlist was to start (--start) is where its first entry starts.
        startMicros = request.startMicros
        // What follows the entry before it, for `WorkerEngine.changeQueue` (nil: keep `next`).
        lastTaken = p > 0 ? p - 1 : nil
        next = p < queue.count ? p : queue.position(after: p - 1)
        return true
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
