import MotetEvents

/// Fades around repositions (README, "Crossfade"): a seek, skip, stop or pause fades out of what
/// is heard over 5 ms instead of cutting it (a de-click), and with `--crossfade` a manual skip
/// crossfades over min(crossfade, 1 s) from the moment it is heard.
extension PlayerStateMachine {
    /// A manual skip's crossfade is this long at most.
    static let skipCrossfade: Duration = .seconds(1)

    /// What plays where the output's sound would stop now (`PlaybackEngine.cut`): the place a fade
    /// out of a cut starts from, for a fade of `length`. A local file is read again from there; a
    /// track read over the network (a station, a file over HTTP) is not: its fade out is what the
    /// output kept of it past the cut (`OutputCut.tail`), which may be shorter. Nil when nothing
    /// can be faded: nothing moves, the device is lost, what plays there is not of track `of`, or
    /// it is neither a seekable file nor a stream the output kept.
    /// The engine's workers are parked by the look (to know where they are): the caller
    /// repositions after a place is found; without one they were let go again.
    func placeOfCut(of trackID: UInt64? = nil, length: Duration = CutFade.declickLength) -> FadePlace? {
        guard phase.isMoving, phase.underway?.deviceLost != true else { return nil }
        var segments: [(info: SegmentInfo, boundary: SegmentBoundary)] = []
        if let c = current, c.heard, let b = c.boundary { segments.append((c.info, b)) }
        segments += ahead.compactMap { a in a.boundary.map { (a.info, $0) } }
        guard !segments.isEmpty else { return nil }
        let cut = engine.cut(tail: length)
        if let place = Self.place(at: cut, in: segments, of: trackID) { return place }
        engine.release()
        return nil
    }

    /// What of `segments` (with where each begins) plays at `cut`, and from where it can be faded
    /// out (`placeOfCut`); nil when it cannot.
    private static func place(
        at cut: OutputCut, in segments: [(info: SegmentInfo, boundary: SegmentBoundary)], of trackID: UInt64?
    ) -> FadePlace? {
        guard let (info, b) = segments.last(where: { $0.boundary.epoch == cut.epoch && $0.boundary.frame <= cut.frame }),
            trackID.map({ $0 == info.trackID }) ?? true
        else { return nil }
        let position = info.fileStart + .frames(cut.frame - b.frame, rate: info.format.sampleRate)
        var tail: AudioTail?
        if info.url != nil {
            // Not read again: faded out of what the output kept of it.
            guard let kept = cut.tail, kept.segmentID == info.segmentID else { return nil }
            tail = kept
            tail?.origin = info
        } else {
            guard info.canSeek, !info.isLive, info.duration.map({ position < $0 }) ?? true else { return nil }
        }
        return FadePlace(
            path: info.path, orderPosition: info.orderPosition, trackID: info.trackID, position: info.linkStart + position, tail: tail)
    }

    /// Pauses with a fade: the sound fades out over 5 ms, the sink pauses after it, and the track
    /// goes on from there, fading in, when play comes. False when it cannot (`placeOfCut`).
    /// A stream's fade out is what the output kept of it, and nothing of it is read on after the
    /// pause: play opens it again (`resumeStream`). So a file over HTTP that cannot be fetched
    /// from the middle (no ranges) is paused as before, corked with its buffers kept.
    func pauseFading() -> Bool {
        guard let c = current, let underway = phase.underway else { return false }
        if c.info.url != nil, !c.info.isLive, !c.info.canSeek { return false }
        guard let place = placeOfCut(of: c.info.trackID) else { return false }
        // Told while the workers are parked (by the look): the sink cannot pass the point first.
        engine.setPaused(true, atPausePoint: true)
        resumesFaded = c.info.trackID
        phase = .paused(underway)
        if place.tail != nil {
            // A stream is not read on after the pause: play opens it again (`resumeStream`), and
            // until then the decoder holds after the fade.
            resumesAt = place.position - c.info.linkStart + CutFade.declickLength
            reposition(to: c.info.orderPosition, start: .zero, keepTrack: false, keepCurrent: true, hold: true, fade: (place, .declickThenPause))
        } else {
            reposition(to: queue.position(after: c.info.orderPosition), start: .zero, keepTrack: false, keepCurrent: true, fade: (place, .declickThenPause))
        }
        publishNowPlaying()
        return true
    }

    /// Skips with `--crossfade`: the current track fades out from where it is heard while the one
    /// at `position` fades in; it finishes (`reason`) in the middle of the fade, as at a track's
    /// end. False when it cannot (`placeOfCut`; then the caller cuts with a de-click).
    func skipCrossfading(to position: Int, reason: FinishReason, backwards: Bool) -> Bool {
        let length = min(configuration.crossfade, Self.skipCrossfade)
        guard configuration.crossfade > .zero, let c = current, let place = placeOfCut(of: c.info.trackID, length: length) else { return false }
        skipping = Skipping(trackID: c.info.trackID, reason: reason, to: position)
        reposition(to: position, start: .zero, keepTrack: false, keepCurrent: true, backwards: backwards, fade: (place, .crossfade(length)))
        return true
    }
}

extension PlayerStateMachine {
    /// Play after a pause that faded out of a stream (`pauseFading`): the stream was not read on,
    /// so it is opened again where the pause was (a file over HTTP, by a range), fading in. A
    /// station instead rejoins what is on air (`rejoinLive`). False when the pause was not one.
    func resumeStream() -> Bool {
        guard let c = current, let at = resumesAt, !c.info.isLive else { return false }
        resumesAt = nil
        reposition(to: c.info.orderPosition, start: at, keepTrack: true)
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
