import MotetConfiguration
import MotetEvents
import MotetSystem
import MotetLikes
import MotetNetwork

/// Commands: what keys, signals and plugins ask for.
extension PlayerStateMachine {
    /// `track`: the track the command is meant for (0: whatever is current). A command for a track
    /// that is no longer current is dropped, and said once per source.
    func handle(_ command: PlayerCommand, from source: CommandSource, track: UInt64 = 0) {
        if track != 0, track != current?.info.trackID {
            out.message("motet: \(command.name)\(who(source)) dropped: track \(track) is no longer current")
            return
        }
        switch command {
        case .play: play()
        case .pause: pause()
        case .toggle: phase.isMoving ? pause() : play()
        case .next: next(from: source)
        case .previous: previous(from: source)
        case .stop: if status != .stopped { stop() }
        case .like, .dislike, .unlike:
            guard current != nil else { return keepForNextTrack(command, source) }
            rate(command, from: source)
        case .seekRelative(let offset):
            guard current != nil else { return keepForNextTrack(command, source) }
            seek(to: (elapsed() ?? .zero) + .microseconds(offset))
        case .seekAbsolute(let position):
            guard current != nil else { return keepForNextTrack(command, source) }
            seek(to: .microseconds(position))
        case .setVolume(let percent): setVolume(percent)
        case .changeVolume(let delta): setVolume(volume + delta)
        case .quit: quit()
        case .setLoop(let loop): setLoop(loop)
        case .setShuffle(let shuffle): setShuffle(shuffle)
        case .openURI(let uri): open(uri, from: source)
        case .toggleShuffle: setShuffle(!queue.shuffled)
        case .toggleLoop: setLoop(!queue.loop)
        case .toggleMute: setMuted(!muted)
        }
    }

    /// Keeps a command about "the current track" for the track being opened after a skip.
    private func keepForNextTrack(_ command: PlayerCommand, _ source: CommandSource) {
        guard let kept = phase.opening?.deferred else { return }
        if kept.count == Self.maxDeferred { phase.underway?.opening?.deferred.removeFirst() }
        phase.underway?.opening?.deferred.append(DeferredCommand(command: command, source: source))
    }

    /// Runs the commands kept while the current track was being opened.
    func applyDeferred(_ pending: [DeferredCommand]) {
        for d in pending { handle(d.command, from: d.source) }
    }

    func who(_ source: CommandSource) -> String {
        if case .plugin(let name) = source { " (from \(name))" } else { "" }
    }

    private func next(from source: CommandSource) {
        // After a skip whose track is not open yet, next counts from that track: pressing it twice
        // skips two tracks.
        guard let from = skipping?.to ?? current?.info.orderPosition ?? phase.opening?.position, let next = queue.position(after: from) else {
            out.message("motet: no next track\(who(source))")
            return
        }
        if var limiter = skipLimiter {
            let t = now()
            guard limiter.left(at: t) > 0 else {
                let wait = (limiter.nextFree(at: t) ?? .zero).countRoundedUp(of: .seconds(60))
                out.message("motet: skip refused\(who(source)): no skip left (--skip-limit); next one in \(wait) min")
                return
            }
            limiter.record(at: t)
            skipLimiter = limiter
        }
        startReason = .next
        skip(to: next, reason: .skipped)
    }

    /// Previous acts on the current track only: the one being opened after a skip is current
    /// within milliseconds, so a person's second press counts, and a burst of them from a plugin
    /// does not walk back through the whole queue.
    ///
    /// A live stream has no start to go back to (restarting it would only reconnect, and the song
    /// on air is not the one that was): previous is the previous entry of the queue, or nothing.
    private func previous(from source: CommandSource) {
        guard let c = current else { return }
        if c.info.isLive {
            guard let before = queue.position(before: c.info.orderPosition) else {
                out.message("motet: no previous entry\(who(source)): a live stream cannot go back to the start of the song")
                return
            }
            startReason = .previous
            skip(to: before, reason: .skipped, backwards: true)
            return
        }
        if (elapsed() ?? .zero) > Self.previousRestartsAfter {
            let place = placeOfCut()
            reposition(to: c.info.orderPosition, start: .zero, keepTrack: true, seek: true, fade: place.map { ($0, .declick) })
        } else {
            startReason = .previous
            let before = queue.position(before: c.info.orderPosition)
            skip(to: before ?? c.info.orderPosition, reason: .skipped, backwards: before != nil)
        }
    }

    private func rate(_ command: PlayerCommand, from source: CommandSource) {
        guard let c = current else { return }
        let rating: FeedbackStore.Rating? = command == .like ? .liked : command == .dislike ? .disliked : nil
        // Feedback that changes nothing sends nothing: a plugin that likes on every now-playing
        // must not make another now-playing.
        guard (rating == .liked) != c.liked || (rating == .disliked) != c.disliked else { return }
        current?.liked = rating == .liked
        current?.disliked = rating == .disliked
        let m = c.info.metadata
        do {
            try feedback?.set(rating, path: c.info.filePath, title: m.title, artists: m.artists, album: m.album)
        } catch {
            out.message("motet: \(error)")
        }
        publishNowPlaying()
        // A dislike moves on only where that loses nothing but the song: in a live stream it rates
        // the song on air and the station plays on.
        if command == .dislike, nextEnabled, c.info.skipsWhenDisliked { next(from: source) }
    }

    private func setVolume(_ percent: Int) {
        volume = max(0, min(100, percent))
        engine.setVolume(muted ? 0 : Float(volume) / 100)
        publishState()
        showDisplay()
    }

    /// Mute is apart from the volume, as in mpv: volume keys change what unmuting gives back.
    private func setMuted(_ on: Bool) {
        muted = on
        setVolume(volume)
    }

    private func seek(to target: Duration) {
        guard let c = current else { return }
        guard c.info.canSeek, !c.info.isLive else {
            out.message(
                c.info.isLive
                    ? "motet: cannot seek in a live stream (\(c.info.path))"
                    : "motet: cannot seek in \(c.info.path): "
                        + (c.info.url != nil ? "the server does not offer seeking" : "the file is not seekable (a damaged chain)"))
            return
        }
        var position = max(.zero, target)
        if let d = c.info.duration, position >= d {
            // Seeking past the end is a skip to what follows.
            if let next = queue.position(after: c.info.orderPosition) {
                startReason = .request
                skip(to: next, reason: .skipped)
                return
            }
            position = max(.zero, d - .milliseconds(1))
        }
        let place = placeOfCut()
        reposition(to: c.info.orderPosition, start: position, keepTrack: true, seek: true, fade: place.map { ($0, .declick) })
    }

    func play() {
        switch phase {
        case .paused(var u), .interrupted(var u):
            // Play ends an interruption of either kind: a lost device is not waited for any more.
            u.deviceLost = false
            engine.setPaused(false)
            phase = current?.heard == true ? .playing(u) : .loading(u)
            if let c = current, c.info.isLive { return rejoinLive(c) }
            _ = resumeStream()
        case .stopped(let at):
            phase = .loading(Underway(opening: Opening(position: at)))
            startReason = .request
            engine.release()
        default:
            return
        }
        publishState()
        publishNowPlaying()
    }

    /// A station resumes at what is on air now, not where it stood (as mpd does): the buffered
    /// audio is dropped and the stream opened again. Played on from the buffers, a pause would
    /// leave the listener behind live by its length with no sign of it, which no radio does. The
    /// song paused in is finished (stopped); what is on air starts as a track of its own.
    private func rejoinLive(_ c: Current) {
        finishCurrent(reason: .stopped)
        current = nil
        startReason = .request
        reposition(to: c.info.orderPosition, start: .zero, keepTrack: false)
    }

    func pause() {
        guard phase.isMoving || status == .interrupted, let underway = phase.underway else { return }
        if phase.isMoving, pauseFading() { return }
        engine.setPaused(true)
        phase = .paused(underway)
        publishState()
        publishNowPlaying()
    }

    /// Forgets what is buffered and starts decoding `position` at `start`. Paused stays
    /// paused: the new track (or position) becomes current as soon as it is open.
    /// `backwards`: a previous, so that a disliked track there is passed over towards the start.
    /// `seek`: the reopened segment's position is announced with a `seeked` event.
    /// `keepCurrent`: the current track stays current (not reused by what is decoded next) until
    /// the fade out of it (`fade`) brings its next segment or the next track.
    /// `hold`: after the fade, the decoder waits for the next reposition (a pause out of a stream).
    func reposition(
        to position: Int?, start: Duration, keepTrack: Bool, keepCurrent: Bool = false, backwards: Bool = false, seek: Bool = false,
        hold: Bool = false, fade: (FadePlace, CutFade)? = nil
    ) {
        let reuse = keepTrack ? current?.info.trackID : nil
        if !keepCurrent {
            skipping = nil
            resumesFaded = nil
            resumesAt = nil
        }
        let heardAt = elapsed()
        if keepTrack || keepCurrent {
            let heard = segmentHeard()
            current?.heardBefore += heard
        }
        // Track times count from the track's link in a chained file; the decoder seeks in the file.
        let linkStart = keepTrack ? current?.info.linkStart ?? .zero : .zero
        generation = engine.reposition(
            to: position, start: linkStart + max(.zero, start), reuseTrackID: reuse, hold: hold && fade != nil, backwards: backwards, fade: fade)
        ahead.removeAll()
        earlyBoundaries.removeAll()
        // Commands kept for a track still opening wait for this one instead.
        let opening = Opening(position: position, seek: seek, deferred: phase.opening?.deferred ?? [])
        let underway = Underway(opening: opening, deviceLost: phase.underway?.deviceLost ?? false, drySince: nil)
        switch phase {
        // A track kept while it fades out is still heard: playing, not loading.
        case .loading, .playing, .buffering: phase = keepCurrent && current?.heard == true ? .playing(underway) : .loading(underway)
        case .paused: phase = .paused(underway)
        case .interrupted: phase = .interrupted(underway)
        // Stopped (an opened URI): play starts the new position.
        case .stopped(let at): phase = .stopped(at: position ?? at)
        case .complete, .quit: break
        }
        if keepTrack || keepCurrent, var c = current {
            // Until the reopened segment is there, the position is the target (or, kept while
            // it fades out, where it was heard).
            c.info.fileStart = keepCurrent ? heardAt ?? c.info.fileStart : max(.zero, start)
            c.boundary = nil
            // Kept while it fades out, it is still heard: the status stays what it was.
            c.heard = keepCurrent && c.heard
            current = c
        } else {
            current = nil
        }
        publishState()
        // A skip publishes the new track when it is open, not "nothing" in between.
        if current != nil { publishNowPlaying() }
    }

    private func skip(to position: Int, reason: FinishReason, backwards: Bool = false) {
        if skipCrossfading(to: position, reason: reason, backwards: backwards) { return }
        let place = placeOfCut()
        finishCurrent(reason: reason)
        current = nil
        reposition(to: position, start: .zero, keepTrack: false, backwards: backwards, fade: place.map { ($0, .declick) })
    }

    private func stop() {
        let place = placeOfCut()
        finishCurrent(reason: .stopped)
        // Not yet open after a skip: the track being loaded is the place to come back to.
        let position = skipping?.to ?? current?.info.orderPosition ?? phase.opening?.position ?? 0
        skipping = nil
        generation = engine.reposition(
            to: position, start: .zero, reuseTrackID: nil, hold: true, backwards: false, fade: place.map { ($0, .declick) })
        engine.setPaused(false)
        ahead.removeAll()
        earlyBoundaries.removeAll()
        current = nil
        phase = .stopped(at: position)
        publishState()
        publishNowPlaying()
    }

    private func quit() {
        // What has been heard so far counts (the exit status says whether anything played).
        outcome.quit = true
        advanceHeard(everything: false)
        finishCurrent(reason: .stopped)
        current = nil
        phase = .quit
        publishNowPlaying()
        publishState()
    }

    private func setLoop(_ loop: Bool) {
        guard loop != queue.loop else { return }
        engine.changeQueue(&queue) { queue, _ in queue.loop = loop }
        // Loop also decides whether the first track has one before it (previous-enabled).
        refreshNextEnabled(publishing: false)
        if current != nil { publishNowPlaying() }
        publishState()
        showDisplay()
    }

    /// Shuffle reorders what has not been decoded yet: the current track and those decoded ahead
    /// of it keep their places.
    private func setShuffle(_ shuffle: Bool) {
        guard shuffle != queue.shuffled else { return }
        let kept = ([current?.info.orderPosition] + ahead.map(\.info.orderPosition)).compactMap { $0 }.max()
        engine.changeQueue(&queue) { queue, decoded in queue.setShuffled(shuffle, keepingThrough: max(kept ?? -1, decoded ?? -1)) }
        refreshNextEnabled()
        publishState()
        showDisplay()
    }

    /// Appends the file or the http(s) URL a URI names to the queue and plays it. A file or URL
    /// with a playlist's name is read as one when it is played (`PlayedPlaylists`), as is a URL
    /// whose server answers with a playlist's content type: its entries take its place and the
    /// first plays.
    private func open(_ uri: String, from source: CommandSource) {
        // An absolute path as it is; a file:// URI as its path; an http(s) URL as it is fetched.
        let address = uri.hasPrefix("/") ? nil : WebAddress(uri)
        guard let path = uri.hasPrefix("/") ? (uri.contains("\0") ? nil : uri) : address?.filePath ?? address.flatMap({ $0.isRemote ? $0.text : nil })
        else {
            out.message("motet: cannot open \(uri)\(who(source)): only file paths, file:// and http(s):// URIs can be opened")
            return
        }
        var position = 0
        let playlist = InputExpander.namesPlaylist(path)
        engine.changeQueue(&queue) { queue, _ in position = queue.append(path, expand: playlist) }
        startReason = .request
        skip(to: position, reason: .skipped)
        if status == .paused || status == .stopped || status == .interrupted { play() }
    }
}
