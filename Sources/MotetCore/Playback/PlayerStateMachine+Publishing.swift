import MotetEvents

/// Publishing: what the delegates and the status line are told (now-playing, state, display).
extension PlayerStateMachine {
    func nowPlaying() -> NowPlaying {
        let t = now()
        guard let c = current else { return .nothing(at: t) }
        let m = c.info.metadata
        return NowPlaying(
            track: TrackInfo(
                title: TrackTitle.shown(tag: m.title, filePath: c.info.path), artists: m.artists, album: m.album,
                durationMicros: c.info.durationMicros, artwork: c.info.artwork, filePath: c.info.path),
            trackID: c.info.trackID, elapsedMicros: elapsedMicros(), elapsedAtMicros: t,
            rate: status == .playing ? 1 : 0, liked: liked, disliked: disliked, nextEnabled: nextEnabled,
            previousEnabled: queue.position(before: c.info.orderPosition) != nil)
    }

    func publishNowPlaying() {
        let snapshot = nowPlaying()
        out.events(.nowPlaying(snapshot))
        engine.describe(title: snapshot.track?.title, artist: snapshot.track?.joinedArtists)
        showDisplay(snapshot)
    }

    func publishState() {
        let stalled: StalledReason =
            interruption == .deviceLost ? .deviceLost : status == .stalled ? .buffering : .none
        let state = PlaybackState(
            status: status, volumePercent: volume, shuffle: queue.shuffled, loop: queue.loop,
            canSeek: current?.info.canSeek ?? false, remoteCommands: configuration.remoteCommands,
            stalledReason: stalled)
        guard state != lastStateEvent else { return }
        lastStateEvent = state
        out.events(.playbackState(state))
    }

    func showDisplay(_ snapshot: NowPlaying? = nil) {
        let shown = snapshot ?? nowPlaying()
        if let interval = configuration.displayIntervalMicros, let elapsed = shown.elapsedMicros {
            lastDisplayedTick = elapsed / interval
        }
        out.display(PlayerDisplay(nowPlaying: shown, status: status, volume: volume, skipsLeft: skipsLeft()))
    }

    func skipsLeft() -> Int? {
        guard var limiter = skipLimiter else { return nil }
        let left = limiter.left(at: now())
        skipLimiter = limiter
        return left
    }

    /// Recomputes whether next is possible now; a change is published with the track.
    func refreshNextEnabled(publishing: Bool = true) {
        let left = skipsLeft() ?? Int.max
        let hasNext = current.map { queue.position(after: $0.info.orderPosition) != nil } ?? false
        let enabled = hasNext && left > 0
        answers.update(nextEnabled: enabled, skipsExhausted: left == 0)
        guard enabled != nextEnabled else { return }
        nextEnabled = enabled
        if publishing, current != nil { publishNowPlaying() }
    }
}
