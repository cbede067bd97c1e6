import MotetEvents
import MotetPluginABI

/// The events waiting for one plugin instance, bounded so a stuck plugin cannot grow memory, and
/// with no silent loss of a track (the rules of "Events" in `motet/plugin.h`):
///
/// - Track-level events (track started, track finished) never coalesce.
/// - A waiting now-playing is replaced by a newer one of the same track (latest wins), which goes
///   to the end so it stays after the events that preceded it; a now-playing of another track
///   never replaces it, so every track keeps at least its first now-playing. A waiting playback
///   state is replaced by a newer one the same way.
/// - At most `trackCapacity` tracks wait at once. Past that the oldest track's events are all
///   dropped and counted; the next `pop` returns `.tracksLost(count)` before anything else.
/// - Other events (decode errors, interruptions, "nothing playing") keep their order; past
///   `otherCapacity` of them the oldest is dropped and counted in `takeDroppedOthers()`.
struct PluginEventQueue {
    /// Most tracks waiting at once (`MOTET_QUEUE_TRACKS`).
    static let trackCapacity = Int(MOTET_QUEUE_TRACKS)
    /// Most other events waiting at once.
    static let otherCapacity = Int(MOTET_QUEUE_TRACKS)

    // Removed entries become nil in place (no shifting, no copies of the events); `head` skips
    // them and `compact` reclaims the space now and then. Every scan reads only `kinds` (small
    // values), never the events themselves.
    private var kinds: [QueuedEventKind?] = []
    private var events: [QueuedEvent?] = []
    private var head = 0
    /// Distinct tracks with events waiting, oldest first, and how many events each has waiting.
    private var tracks: [UInt64] = []
    private var waitingPerTrack: [UInt64: Int] = [:]
    private var othersWaiting = 0
    private(set) var count = 0
    private var lostTracks = 0
    private var droppedOthers = 0

    var isEmpty: Bool { count == 0 && lostTracks == 0 }

    /// How many tracks have events waiting.
    var tracksWaiting: Int { tracks.count }

    mutating func push(_ event: QueuedEvent) {
        let kind = event.kind
        switch kind {
        case .nowPlaying, .playbackState:
            if let waiting = firstIndex(where: { $0 == kind }) { remove(at: waiting) }
        case .track, .other:
            break
        }
        if let track = kind.track { admit(track) }
        if kind.isOther { boundOthers() }
        compact()
        kinds.append(kind)
        events.append(event)
        tally(kind, +1)
    }

    mutating func pop() -> QueuedEvent? {
        if lostTracks > 0 {
            defer { lostTracks = 0 }
            return .tracksLost(lostTracks)
        }
        while head < kinds.count && kinds[head] == nil { head += 1 }
        guard head < kinds.count else { return nil }
        return remove(at: head)
    }

    /// How many events other than track events were dropped since the last call; resets it.
    mutating func takeDroppedOthers() -> Int {
        defer { droppedOthers = 0 }
        return droppedOthers
    }

    private func firstIndex(where matches: (QueuedEventKind) -> Bool) -> Int? {
        for i in head..<kinds.count { if let k = kinds[i], matches(k) { return i } }
        return nil
    }

    @discardableResult
    private mutating func remove(at index: Int) -> QueuedEvent {
        let kind = kinds[index]!
        let event = events[index]!
        kinds[index] = nil
        events[index] = nil
        tally(kind, -1)
        return event
    }

    private mutating func tally(_ kind: QueuedEventKind, _ delta: Int) {
        count += delta
        if kind.isOther { othersWaiting += delta }
        guard let track = kind.track else { return }
        let left = waitingPerTrack[track, default: 0] + delta
        waitingPerTrack[track] = left > 0 ? left : nil
        if left == 0 { tracks.removeAll { $0 == track } }
    }

    /// Makes room for `track` (dropping the oldest track's events when `trackCapacity` tracks
    /// already wait) and records it as waiting.
    private mutating func admit(_ track: UInt64) {
        guard waitingPerTrack[track] == nil else { return }
        if tracks.count >= Self.trackCapacity, let oldest = tracks.first {
            for i in head..<kinds.count where kinds[i]?.track == oldest { remove(at: i) }
            lostTracks += 1
        }
        tracks.append(track)
    }

    private mutating func boundOthers() {
        guard othersWaiting >= Self.otherCapacity, let oldest = firstIndex(where: \.isOther) else { return }
        remove(at: oldest)
        droppedOthers += 1
    }

    /// Reclaims the removed entries once they are the larger part (amortised O(1) per push).
    private mutating func compact() {
        guard kinds.count > 64, kinds.count > 2 * count else { return }
        kinds = kinds.filter { $0 != nil }
        events = events.filter { $0 != nil }
        head = 0
    }
}

/// How the queue treats an event.
enum QueuedEventKind: Equatable {
    /// A now-playing of a track (0: "nothing playing").
    case nowPlaying(UInt64)
    case playbackState
    /// Another event of a track: started, finished, seeked.
    case track(UInt64)
    /// Decode errors, interruptions, the host's own events.
    case other

    /// The track the event belongs to, if any.
    var track: UInt64? {
        switch self {
        case .nowPlaying(let t) where t != 0, .track(let t): t
        default: nil
        }
    }

    var isOther: Bool {
        switch self {
        case .other, .nowPlaying(0): true
        default: false
        }
    }
}

extension QueuedEvent {
    var kind: QueuedEventKind {
        switch self {
        case .player(.nowPlaying(let now)): .nowPlaying(now.trackID)
        case .player(.playbackState): .playbackState
        case .player(.trackStarted(let started)): .track(started.track.trackID)
        case .player(.trackFinished(let finished)): .track(finished.trackID)
        case .player(.seeked(let seeked)): .track(seeked.trackID)
        case .player(.decodeError), .player(.interruptionBegan), .player(.interruptionEnded), .tracksLost, .shutdown:
            .other
        }
    }
}
