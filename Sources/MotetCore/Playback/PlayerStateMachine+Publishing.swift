import MotetEvents
import MotetSystem

/// Publishing: what the delegates and the status line are told (now-playing, state, display).
extension PlayerStateMachine {
    func nowPlaying() -> NowPlaying {
        let t = now()
        guard let c = current else { return .nothing(at: t.microseconds) }
        let m = c.info.metadata
        return NowPlaying(
            track: TrackInfo(
                title: c.info.shownTitle, artists: m.artists, album: m.album,
                durationMicros: c.info.publishedDuration, artwork: c.info.artwork, filePath: c.info.filePath,
                url: c.info.url, station: c.info.publishedStation),
            trackID: c.info.trackID, elapsedMicros: elapsed()?.microseconds, elapsedAtMicros: t.microseconds,
            rate: status == .playing ? 1 : 0, liked: c.liked, disliked: c.disliked, nextEnabled: nextDisabledReason == nil,
            previousEnabled: queue.position(before: c.info.orderPosition) != nil, nextDisabledReason: nextDisabledReason)
    }

    func publishNowPlaying() {
        let snapshot = nowPlaying()
        out.events(.nowPlaying(snapshot))
        engine.describe(title: snapshot.track?.title, artist: snapshot.track?.joinedArtists)
        showDisplay(snapshot)
    }

    func publishState() {
        let stalled = phase.stalledReason
        let state = PlaybackState(
            status: status, volumePercent: volume, shuffle: queue.shuffled, loop: queue.loop,
            canSeek: current.map { $0.info.canSeek && !$0.info.isLive } ?? false, remoteCommands: configuration.remoteCommands,
            stalledReason: stalled)
        guard state != said.state else { return }
        said.state = state
        out.events(.playbackState(state))
    }

    func showDisplay(_ snapshot: NowPlaying? = nil) {
        let shown = snapshot ?? nowPlaying()
        if let interval = configuration.displayInterval, let elapsed = shown.elapsedMicros {
            said.displayedTick = Duration.microseconds(elapsed).count(of: interval)
        }
        out.display(
            PlayerDisplay(
                nowPlaying: shown, status: status, volume: volume, skipsLeft: skipsLeft(), shuffle: queue.shuffled,
                loop: queue.loop, muted: muted, crossfade: crossfadeNow()))
    }

    /// The length of the crossfade heard now, if one is: between its start before the incoming
    /// track's first frame and its end after it.
    func crossfadeNow() -> Duration? {
        let h = engine.heard()
        func sounding(_ info: SegmentInfo, _ b: SegmentBoundary?) -> Duration? {
            guard let span = info.crossfade, let b, b.epoch == h.epoch, h.frames >= b.frame - span.before, h.frames < b.frame + span.after
            else { return nil }
            return span.length
        }
        if let c = current, let fade = sounding(c.info, c.boundary) { return fade }
        return ahead.first.flatMap { sounding($0.info, $0.boundary) }
    }

    func skipsLeft() -> Int? {
        guard var limiter = skipLimiter else { return nil }
        let left = limiter.left(at: now())
        skipLimiter = limiter
        return left
    }

    /// The track data the track events carry.
    func record(_ info: SegmentInfo) -> TrackRecord {
        let m = info.metadata
        return TrackRecord(
            trackID: info.trackID, title: info.shownTitle, artists: m.artists, album: m.album,
            durationMicros: info.publishedDuration, filePath: info.filePath, url: info.url,
            station: info.publishedStation, artworkID: info.artwork?.id)
    }

    /// Recomputes whether next is possible now, and why not; a change is published with the track.
    func refreshNextEnabled(publishing: Bool = true) {
        let left = skipsLeft() ?? Int.max
        let hasNext = current.map { queue.position(after: $0.info.orderPosition) != nil } ?? false
        let reason: NextDisabledReason? = left <= 0 ? .skipLimit : hasNext ? nil : .lastTrack
        answers.update(nextDisabled: reason)
        guard reason != nextDisabledReason else { return }
        nextDisabledReason = reason
        if publishing, current != nil { publishNowPlaying() }
    }
}

/// How a segment shows on the surfaces: a network track has its URL and no file; a live stream
/// has no duration (each song is a chained link whose length nobody knows in advance).
extension SegmentInfo {
    /// The local file, or nil for a network track (`path` then holds the URL).
    var filePath: String? { url == nil ? path : nil }
    /// The duration the events carry (microseconds, the ABI's unit).
    var publishedDuration: Int64? { isLive ? nil : duration?.microseconds }
    /// Whether a dislike (now, or one recorded earlier under `--skip-disliked`) leaves this track:
    /// only a finite track. In a live stream the next song is on the same station, so leaving
    /// would skip the station; the dislike is recorded for the song on air and playback goes on.
    var skipsWhenDisliked: Bool { !isLive }
    /// The title every surface shows (`TrackTitle`): a stream without a TITLE tag is called what
    /// its playlist called it.
    var shownTitle: String? { TrackTitle.shown(tag: metadata.title, listed: url != nil ? listedTitle : nil, filePath: filePath) }
    /// nil when the station said nothing about itself.
    var publishedStation: StationInfo? { station.flatMap { $0.isEmpty ? nil : $0 } }
}
