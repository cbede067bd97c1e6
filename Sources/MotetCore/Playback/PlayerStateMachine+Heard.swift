import MotetEvents
import MotetSystem

/// Time and what is heard: the clock's deadlines, segments becoming current as the output reaches
/// them, and tracks finishing with what was heard of them.
extension PlayerStateMachine {
    // MARK: - Time

    /// Reconciles with the heard position and the clock: segments heard, stalls, the skip window,
    /// the status line.
    func tick() {
        advanceHeard(everything: false)
        let t = now()
        if case .playing(let u) = phase, !u.deviceLost, let since = u.drySince, t - since >= Self.stall {
            phase = .buffering(u)
            publishState()
            showDisplay()  // the status line shows the stall at once, not at the next second
        }
        refreshNextEnabled()
        if let interval = displayInterval, status == .playing,
            let elapsed = elapsed(), elapsed.count(of: interval) != said.displayedTick
        {
            showDisplay()
        }
    }

    /// How often the status line is refreshed now: never while no screen shows it.
    var displayInterval: Duration? { displayShown ? configuration.displayInterval : nil }

    /// When `tick()` next has something to do, or nil: only a message can change anything.
    func nextDeadline() -> MonotonicInstant? {
        let t = now()
        var deadlines: [MonotonicInstant] = []
        if status == .playing, let since = phase.underway?.drySince { deadlines.append(since + Self.stall) }
        if let interval = displayInterval, status == .playing, let elapsed = elapsed() {
            // Just after the elapsed time reaches its next whole second: the clock ticks evenly.
            deadlines.append(t + interval - elapsed.remainder(after: interval) + Self.displayLate)
        }
        if let due = boundaryDue(at: t) { deadlines.append(due) }
        if let limiter = skipLimiter, let free = limiter.nextFree(at: t), !nextEnabled { deadlines.append(t + free) }
        return deadlines.min()
    }

    /// The next segment boundary still to be heard and when it will be, if the output is moving.
    func boundaryDue(at t: MonotonicInstant) -> MonotonicInstant? {
        guard phase.isMoving else { return nil }
        let pending: SegmentBoundary? =
            if let c = current, !c.heard, let b = c.boundary { b } else { ahead.first?.boundary }
        guard let b = pending else { return nil }
        let h = engine.heard()
        if isHeard(b, h) { return t }
        // Standing still, or the heard position is from before the segment's stream was opened.
        if h.framesPerSecond == 0 || h.epoch != b.epoch { return t + Self.boundaryPoll }
        return h.at + .frames(b.frame - h.frames, rate: Int(h.framesPerSecond))
    }

    // MARK: - What is heard

    func isHeard(_ b: SegmentBoundary, _ h: HeardNow) -> Bool {
        b.epoch < h.epoch || (b.epoch == h.epoch && (h.framesPerSecond < 0 || h.frames >= b.frame))
    }

    /// Moves on to every segment whose first frame has been heard (`everything`: the output has
    /// drained, so all that was written has been).
    func advanceHeard(everything: Bool) {
        let h = engine.heard()
        if var c = current, !c.heard, let b = c.boundary, everything || isHeard(b, h) {
            c.heard = true
            current = c
            heardCurrent()
        }
        while let first = ahead.first, let b = first.boundary, everything || isHeard(b, h) {
            ahead.removeFirst()
            makeCurrent(first.info, boundary: b, heard: true)
        }
    }

    /// Makes `info` the current segment: a new track (the previous one finished) or the next link
    /// or position of the same track.
    func makeCurrent(_ info: SegmentInfo, boundary: SegmentBoundary?, heard: Bool) {
        let isNewTrack = current?.info.trackID != info.trackID
        var next = Current(info: info, boundary: boundary, heard: heard)
        if let c = current {
            if isNewTrack {
                // A crossfade: the outgoing track's last frames play under this one's first. A
                // skip's crossfade finishes the skipped track here too, as skipped.
                let reason = skipping.flatMap { $0.trackID == c.info.trackID ? $0.reason : nil } ?? .completed
                skipping = nil
                finishCurrent(reason: reason, endedAt: boundary, underNext: info.crossfade?.outgoingTail ?? .zero)
            } else {
                // The next link or position of the same track: what was heard of it, and its rating, go on.
                next.heardBefore = c.heardBefore + segmentHeard(until: boundary)
                next.firstHeardAt = c.firstHeardAt
                // After a pause's fade the track goes on where it was: it has been heard all along.
                if resumesFaded == info.trackID { next.heard = true }
                resumesFaded = nil
                next.liked = c.liked
                next.disliked = c.disliked
            }
        }
        let wrapped = current.map { info.orderPosition < $0.info.orderPosition } ?? false
        if isNewTrack {
            let m = info.metadata
            let rating = feedback?.rating(path: info.filePath, title: m.title, artists: m.artists, album: m.album)
            next.liked = rating == .liked
            next.disliked = rating == .disliked
        }
        current = next
        answers.update(currentTrack: info.trackID)
        if isNewTrack {
            var reason = startReason
            if reason == .natural && wrapped && queue.loop { reason = .loop }
            startReason = .natural
            out.events(
                .trackStarted(
                    TrackStarted(track: record(info), reason: reason, startedAtUnixMicros: wallNow(), crossfade: info.crossfade?.length)))
            for warning in info.metadata.warnings { out.message("motet: \(info.path): \(warning)") }
        }
        if heard {
            heardCurrent()
        } else {
            refreshNextEnabled(publishing: false)
            publishState()
            publishNowPlaying()
        }
    }

    /// The current segment's first frame was just heard.
    func heardCurrent() {
        outcome.playedAnything = true
        if current?.firstHeardAt == nil { current?.firstHeardAt = wallNow() }
        // Sound is heard: the ring was fed, whether or not the sink's `.fed` is taken yet (it may
        // come a turn later); its old dry spell must not make a second stall at once. A lost
        // device keeps a buffering stall: its own `.restored` resumes.
        switch phase {
        case .loading(var u):
            u.drySince = nil
            phase = .playing(u)
        case .buffering(var u) where !u.deviceLost:
            u.drySince = nil
            phase = .playing(u)
        default:
            break
        }
        refreshNextEnabled(publishing: false)
        publishState()
        publishNowPlaying()
    }

    /// The current track is over: `trackFinished` with what was heard of it. `current` stays; the
    /// caller replaces or clears it.
    /// `endedAt`: where the next segment starts, when known (the sink may be past it already).
    /// `underNext`: how much of it plays on under the next track (a crossfade's second half),
    /// counted as heard: it finishes in the middle of the fade (plugin.h, "Crossfade").
    func finishCurrent(reason: FinishReason, endedAt end: SegmentBoundary? = nil, underNext: Duration = .zero) {
        guard let c = current else { return }
        let info = c.info
        let ok = !failedTracks.contains(info.trackID)
        var position = (elapsed() ?? info.fileStart) + underNext
        if let d = info.duration { position = min(position, d) }
        let track = record(info)
        out.events(
            .trackFinished(
                TrackFinished(
                    trackID: info.trackID, filePath: info.filePath, title: track.title, successfully: ok,
                    reason: ok ? reason : .failed, track: track, heardMicros: (c.heardBefore + segmentHeard(until: end) + underNext).microseconds,
                    positionMicros: position.microseconds, firstHeardUnixMicros: c.firstHeardAt)))
    }

    /// What has been heard of the current segment: up to the heard position, but never past where
    /// the next segment starts (`end`, else the first segment waiting ahead) — the sink may have
    /// played on into the next ones before the control thread looks.
    func segmentHeard(until end: SegmentBoundary? = nil) -> Duration {
        guard let c = current, c.heard, let b = c.boundary else { return .zero }
        let h = engine.heard()
        if h.epoch == b.epoch {
            var frames = h.frames
            if let next = end ?? ahead.first?.boundary, next.epoch == b.epoch { frames = min(frames, next.frame) }
            return .frames(max(0, frames - b.frame), rate: c.info.format.sampleRate)
        }
        // The output was reopened since (a format change): the segment was played out.
        return max(.zero, (c.info.duration ?? c.info.fileStart) - c.info.fileStart)
    }

    /// The queue has been played to its end.
    func finishQueue() {
        advanceHeard(everything: true)
        finishCurrent(reason: .completed)
        current = nil
        phase = .complete
        publishNowPlaying()
        publishState()
    }

    /// Where the current track is, as heard.
    func elapsed() -> Duration? {
        guard let c = current else { return nil }
        var frames: Int64 = 0
        if let b = c.boundary {
            let h = engine.heard()
            if h.epoch == b.epoch { frames = max(0, h.frames - b.frame) }
            // The output was reopened since (the next segment changed the format): played out.
            if h.epoch > b.epoch, let d = c.info.duration { return d }
        }
        var elapsed = c.info.fileStart + .frames(frames, rate: c.info.format.sampleRate)
        if let d = c.info.duration { elapsed = min(elapsed, d) }
        return elapsed
    }
}
