import MotetEvents

/// Fades around repositions (README, "Crossfade"): a seek, skip, stop or pause fades out of what
/// is heard over 5 ms instead of cutting it (a de-click), and with `--crossfade` a manual skip
/// crossfades over min(crossfade, 1 s) from the moment it is heard.
extension PlayerStateMachine {
    /// A manual skip's crossfade is this long at most.
    static let skipCrossfade: Duration = .seconds(1)

    /// What plays where the output's sound would stop now (`PlaybackEngine.cut`): the place a fade
    /// out of a cut starts from. Nil when nothing can be faded: nothing moves, the device is lost,
    /// or what plays there is not a local file to read again (a stream), or not of track `of`.
    /// The engine's workers are parked by the look (to know where they are): the caller
    /// repositions after a place is found; without one they were let go again.
    func placeOfCut(of trackID: UInt64? = nil) -> FadePlace? {
        guard phase.isMoving, phase.underway?.deviceLost != true else { return nil }
        var segments: [(info: SegmentInfo, boundary: SegmentBoundary)] = []
        if let c = current, c.heard, let b = c.boundary { segments.append((c.info, b)) }
        segments += ahead.compactMap { a in a.boundary.map { (a.info, $0) } }
        guard !segments.isEmpty else { return nil }
        let cut = engine.cut()
        guard let (info, b) = segments.last(where: { $0.boundary.epoch == cut.epoch && $0.boundary.frame <= cut.frame }),
            info.url == nil, info.canSeek, !info.isLive, trackID.map({ $0 == info.trackID }) ?? true
        else {
            engine.release()
            return nil
        }
        let position = info.fileStart + .frames(cut.frame - b.frame, rate: info.format.sampleRate)
        if let d = info.duration, position >= d {
            engine.release()
            return nil
        }
        return FadePlace(path: info.path, orderPosition: info.orderPosition, trackID: info.trackID, position: info.linkStart + position)
    }

    /// Pauses with a fade: the sound fades out over 5 ms, the sink pauses after it, and the track
    /// goes on from there, fading in, when play comes. False when it cannot (`placeOfCut`).
    func pauseFading() -> Bool {
        guard let c = current, let underway = phase.underway, let place = placeOfCut(of: c.info.trackID) else { return false }
        // Told while the workers are parked (by the look): the sink cannot pass the point first.
        engine.setPaused(true, atPausePoint: true)
        resumesFaded = c.info.trackID
        phase = .paused(underway)
        reposition(to: queue.position(after: c.info.orderPosition), start: .zero, keepTrack: false, keepCurrent: true, fade: (place, .declickThenPause))
        publishNowPlaying()
        return true
    }

    /// Skips with `--crossfade`: the current track fades out from where it is heard while the one
    /// at `position` fades in; it finishes (`reason`) in the middle of the fade, as at a track's
    /// end. False when it cannot (`placeOfCut`; then the caller cuts with a de-click).
    func skipCrossfading(to position: Int, reason: FinishReason, backwards: Bool) -> Bool {
        guard configuration.crossfade > .zero, let c = current, let place = placeOfCut(of: c.info.trackID) else { return false }
        skipping = Skipping(trackID: c.info.trackID, reason: reason, to: position)
        let length = min(configuration.crossfade, Self.skipCrossfade)
        reposition(to: position, start: .zero, keepTrack: false, keepCurrent: true, backwards: backwards, fade: (place, .crossfade(length)))
        return true
    }
}

/// A manual skip whose crossfade is under way: the outgoing track finishes with `reason` when the
/// incoming one becomes current; a second skip counts from `to`.
struct Skipping: Equatable {
    var trackID: UInt64
    var reason: FinishReason
    var to: Int
}
