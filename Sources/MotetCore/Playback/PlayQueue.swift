import MotetConfiguration
import MotetSystem

/// The play order: the files, their order (shuffled or not), and whether it loops. Positions are
/// indexes into `order`.
///
/// The control thread owns it (`PlayerStateMachine.queue`) and is its only writer; the decoder
/// reads the copy the control thread last gave it (`DecodeCursor.queue`). An entry that turns out
/// to be a playlist when it is played (a URL whose server answers with a playlist's content type,
/// or a file or URL given by OpenUri with a playlist's name) is replaced by the playlist's entries
/// (`replace(at:with:)`) on the control thread, while the decoder waits at it: positions after it
/// move, and the control thread moves the ones it holds at that moment.
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

    /// The playlists the entry at `position` came from (see `origins`).
    func origin(at position: Int) -> [String] { origins[order[position]] ?? [] }

    /// The title a playlist gave the entry at `position`, if any.
    func title(at position: Int) -> String? { titles[order[position]] }

    /// Whether the entry at `position` is to be read as an input when played.
    func expandsWhenPlayed(at position: Int) -> Bool { expandWhenPlayed.contains(order[position]) }

    /// Replaces the entry at `position` by `entries` (each with the playlists it came from), in
    /// their order, where the entry was; no entries remove it. Positions after it move by
    /// `entries.count - 1`.
    mutating func replace(at position: Int, with entries: [InputExpander.PlayedTrack]) {
        let index = order[position]
        expandWhenPlayed.remove(index)
        origins[index] = nil
        titles[index] = nil
        guard let first = entries.first else {
            order.remove(at: position)
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
    }

    var isEmpty: Bool { order.isEmpty }

    /// How many tracks the order has.
    var count: Int { order.count }

    func path(at position: Int) -> String { files[order[position]] }

    func position(after position: Int) -> Int? {
        if position + 1 < order.count { return position + 1 }
        return loop && !order.isEmpty ? 0 : nil
    }

    /// The entry at `b` is the one listed right after the entry at `a` (the order is not shuffled
    /// between them): an album played in order.
    func isListed(_ b: Int, rightAfter a: Int) -> Bool {
        order.indices.contains(a) && order.indices.contains(b) && order[b] == order[a] + 1
    }

    func position(before position: Int) -> Int? {
        if position > 0 { return position - 1 }
        return loop && !order.isEmpty ? order.count - 1 : nil
    }
}

/// `--skip-limit N/MINUTES`: like a licensed radio service, at most N skips in any window.
struct SkipLimiter: Sendable {
    let count: Int
    let window: Duration
    private var skips: [MonotonicInstant] = []

    init(count: Int, minutes: Int) {
        self.count = count
        window = .seconds(60 * minutes)
    }

    mutating func left(at now: MonotonicInstant) -> Int {
        skips.removeAll { now - $0 >= window }
        return max(0, count - skips.count)
    }

    mutating func record(at now: MonotonicInstant) { skips.append(now) }

    /// How long until the oldest skip in the window expires.
    func nextFree(at now: MonotonicInstant) -> Duration? { skips.first.map { $0 + window - now } }
}
