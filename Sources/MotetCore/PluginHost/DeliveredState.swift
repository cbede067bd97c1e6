import MotetEvents

/// What a plugin instance has been told so far: the current track, the playback state and the
/// last now-playing. A restarted isolated instance is told it again first (docs/ISOLATION.md).
struct DeliveredState {
    private var started: TrackStarted?
    private var state: PlaybackState?
    private var nowPlaying: NowPlaying?

    /// Notes an event as handed to the plugin.
    mutating func note(_ event: QueuedEvent) {
        switch event {
        case .player(.trackStarted(let s)):
            started = s
        case .player(.trackFinished(let f)):
            if f.trackID == started?.track.trackID { started = nil }
            if f.trackID == nowPlaying?.trackID { nowPlaying = nil }
        case .player(.playbackState(let s)):
            state = s
        case .player(.nowPlaying(let n)):
            nowPlaying = n.track == nil ? nil : n
        default:
            break
        }
    }

    /// What a new instance receives before anything else: the current track as a track started
    /// by request (MOTET_START_REQUEST), the playback state, then the now-playing; for an ABI 1.0
    /// plugin without the track-started event.
    func replay(abiMinor: UInt32) -> [QueuedEvent] {
        var events: [QueuedEvent] = []
        if let started, abiMinor >= 1 {
            events.append(.player(.trackStarted(TrackStarted(
                track: started.track, reason: .request, startedAtUnixMicros: started.startedAtUnixMicros))))
        }
        if let state { events.append(.player(.playbackState(state))) }
        if let nowPlaying, nowPlaying.trackID == started?.track.trackID || started == nil || abiMinor == 0 {
            events.append(.player(.nowPlaying(nowPlaying)))
        }
        return events
    }
}
