import MotetPluginKit

/// What the json delegate's state file and the web delegate's `/api/now-playing` say: the player's
/// state and what is playing, as last told by the host. Both delegates apply the host's events
/// with the `apply` methods below and write it with `write(to:extrapolated:)`, so the two
/// surfaces cannot drift apart (Plugins/JSONFile/schema/now-playing.schema.json).
///
/// `state` is one of loading, playing, paused, stopped, stalled, interrupted: the host's own
/// state, except that `complete` (the queue ended) is `stopped`; `playerState` keeps the host's own
/// word for readers who care (and says `exited` after shutdown).
package struct PlayerSnapshot: Sendable {
    /// The state file's format (schema/now-playing.schema.json): 2 added `loading`, `pid`,
    /// `pidStartTime` and `startedAt`; version 1 files have no `version` key.
    package static let formatVersion: Int64 = 2

    /// The player that writes the file.
    package let process: PlayerProcess
    package var state = "stopped"
    package var playerState = "stopped"
    /// The state to go back to when an interruption ends without a new playback-state event.
    package var stateBeforeInterruption: String?
    package var interruption: String?
    /// Why the host says it is stalled (`buffering`, `device-lost`), from its last playback state.
    package var stalledReason: String?
    package var volume: Int?
    /// The last now-playing event (nil before the first one, or after shutdown), without the
    /// artwork's bytes: their count is `artworkSize`.
    package var nowPlaying: NowPlayingInfo?
    package var artworkSize: Int?
    package var lastError: DecodeErrorInfo?
    /// Wall-clock time of the last error (microseconds).
    package var lastErrorAt: Int64 = 0

    package init(process: PlayerProcess) { self.process = process }

    // MARK: Applying the host's events

    /// A now-playing event: kept without the artwork's bytes (they can be megabytes), whose
    /// count is kept in `artworkSize`.
    package mutating func apply(nowPlaying info: NowPlayingInfo) {
        var kept = info
        kept.artwork?.bytes = []
        artworkSize = info.artwork?.bytes.count
        nowPlaying = kept
    }

    /// A playback-state event; an interruption ends with any state but `interrupted`.
    package mutating func apply(playbackState info: PlaybackStateInfo) {
        let (fileState, playerState) = Self.fileState(info)
        setState(fileState, playerState: playerState)
        volume = info.volumePercent
        stalledReason = info.state == .stalled ? info.stalledReason.flatMap(Self.stalledReasonName) : nil
        if info.state != .interrupted {
            interruption = nil
            stateBeforeInterruption = nil
        }
    }

    /// The sound server paused us (`interrupted`), or the device went away (`stalled`).
    package mutating func applyInterruptionBegan(_ reason: InterruptionKind) {
        if interruption == nil { stateBeforeInterruption = state }
        interruption = reason.name
        setState(reason == .deviceLost ? "stalled" : "interrupted")
    }

    /// Back to the state before the interruption (a playback-state event may follow).
    package mutating func applyInterruptionEnded() {
        setState(stateBeforeInterruption ?? state)
        interruption = nil
        stateBeforeInterruption = nil
    }

    /// A decode error, kept as `lastError` with its wall-clock time.
    package mutating func apply(decodeError: DecodeErrorInfo, at wall: Int64) {
        lastError = decodeError
        lastErrorAt = wall
    }

    /// The player is going away: nothing plays any more.
    package mutating func applyShutdown() {
        state = "stopped"
        playerState = "exited"
        nowPlaying = nil
        interruption = nil
    }

    /// Sets the state, and makes the shown clock follow it at once: the host sends the state and
    /// then the now-playing with the new rate, and between the two writes the file must not say
    /// "playing" at rate 0 (or "paused" with a running clock). The clock is re-anchored now: a
    /// clock that ran is extrapolated to now and stops; a stopped one starts from its value,
    /// except after a stall: what plays then may be another song (a station's next one after a
    /// reconnection), so the time is unknown (null) until its now-playing, which follows at once.
    package mutating func setState(_ newState: String, playerState newPlayerState: String? = nil) {
        let rate: Double = newState == "playing" ? 1 : 0
        if var np = nowPlaying, np.hasTrack, np.rate != rate {
            let now = Clock.monotonicMicros()
            np.elapsedMicros = rate > 0 && state == "stalled" ? nil : Self.elapsed(of: np, at: now)
            np.elapsedAtMicros = now
            np.rate = rate
            nowPlaying = np
        }
        state = newState
        if let newPlayerState { playerState = newPlayerState }
    }

    /// The state file's word for a stall's reason; nil for none or one this kit does not know.
    package static func stalledReasonName(_ reason: PlaybackStateInfo.StalledReason) -> String? {
        switch reason {
        case .none: nil
        case .buffering: "buffering"
        case .deviceLost: "device-lost"
        }
    }

    /// Why the state is stalled, while it is: the host's reason, else the interruption's (a
    /// device lost); nil when not stalled or not said.
    package var shownStalledReason: String? {
        guard state == "stalled" else { return nil }
        return stalledReason ?? (interruption == "device-lost" ? "device-lost" : nil)
    }

    /// The elapsed time now, extrapolated from the last sample while playing; with its
    /// wall-clock sampling time. nil when unknown.
    package func elapsed(extrapolated: Bool) -> (micros: Int64, atWall: Int64)? {
        guard let np = nowPlaying, np.hasTrack, let sampled = np.elapsedMicros else { return nil }
        guard extrapolated, state == "playing", np.rate > 0 else {
            return (sampled, Clock.wallMicros(ofMonotonic: np.elapsedAtMicros))
        }
        return (Self.elapsed(of: np, at: Clock.monotonicMicros()) ?? sampled, Clock.wallMicros())
    }

    /// `np`'s elapsed time at monotonic `now`: running at its rate since it was sampled, never
    /// past the duration. nil when unknown.
    package static func elapsed(of np: NowPlayingInfo, at now: Int64) -> Int64? {
        guard let sampled = np.elapsedMicros else { return nil }
        let value = sampled + Int64(Double(max(0, now - np.elapsedAtMicros)) * np.rate)
        return np.durationMicros.map { min($0, value) } ?? value
    }

    /// Writes the state file's object (see schema/now-playing.schema.json).
    package func write(to json: inout JSONWriter, extrapolated: Bool) {
        let np = nowPlaying?.hasTrack == true ? nowPlaying : nil
        json.beginObject()
        json.key("version"); json.integer(Self.formatVersion)
        json.key("state"); json.string(state)
        json.key("playerState"); json.string(playerState)
        json.key("interruption"); json.string(interruption)
        json.key("stalledReason"); json.string(shownStalledReason)
        json.key("title"); json.string(np?.title)
        json.key("artist"); json.string(np?.artist)
        json.key("artists")
        if let np {
            json.beginArray()
            for a in np.artists { json.string(a) }
            json.endArray()
        } else {
            json.null()
        }
        json.key("album"); json.string(np?.album)
        json.key("duration"); json.seconds(micros: np?.durationMicros)
        let elapsed = elapsed(extrapolated: extrapolated)
        json.key("elapsed"); json.seconds(micros: elapsed?.micros)
        json.key("elapsedAt"); json.seconds(micros: elapsed?.atWall)
        json.key("rate"); json.number(np?.rate)
        json.key("liked"); json.bool(nowPlaying?.likeActive ?? false)
        json.key("disliked"); json.bool(nowPlaying?.dislikeActive ?? false)
        json.key("nextTrackEnabled"); json.bool(nowPlaying?.nextEnabled ?? false)
        json.key("nextTrackDisabledReason"); json.string(np?.nextEnabled == false ? np?.nextDisabledReason : nil)
        json.key("previousTrackEnabled"); json.bool(nowPlaying?.previousEnabled ?? false)
        json.key("artwork")
        if let art = np?.artwork {
            json.beginObject()
            json.key("mime"); json.string(art.mime)
            json.key("path"); json.string(art.path)
            json.key("id"); json.string(art.id.isEmpty ? nil : art.id)
            json.key("size"); json.integer(Int64(artworkSize ?? art.bytes.count))
            json.endObject()
        } else {
            json.null()
        }
        json.key("file"); json.string(np?.filePath)
        json.key("url"); json.string(np?.url)
        json.key("station"); Self.writeStation(np, to: &json)
        json.key("trackId"); json.integer(np.map { Int64(truncatingIfNeeded: $0.trackID) })
        json.key("volume"); json.integer(volume.map { Int64($0) })
        json.key("lastError")
        if let e = lastError {
            Self.writeError(e, at: lastErrorAt, to: &json)
        } else {
            json.null()
        }
        json.key("pid"); json.integer(process.pid)
        json.key("pidStartTime"); json.integer(process.startTime)
        json.key("startedAt"); json.seconds(micros: process.startedAtMicros)
        json.key("updatedAt"); json.seconds(micros: Clock.wallMicros())
        json.endObject()
    }

    /// A stream's station (its icy-* headers) as an object, or null for a file or a silent station.
    package static func writeStation(_ np: NowPlayingInfo?, to json: inout JSONWriter) {
        guard let np, np.station != nil || np.stationDescription != nil || np.stationGenre != nil || np.stationURL != nil
        else { return json.null() }
        json.beginObject()
        json.key("name"); json.string(np.station)
        json.key("description"); json.string(np.stationDescription)
        json.key("genre"); json.string(np.stationGenre)
        json.key("url"); json.string(np.stationURL)
        json.endObject()
    }

    package static func writeError(_ e: DecodeErrorInfo, at wall: Int64, to json: inout JSONWriter) {
        json.beginObject()
        json.key("message"); json.string(e.message)
        json.key("code"); json.integer(Int64(e.code))
        json.key("file"); json.string(e.filePath)
        json.key("position"); json.seconds(micros: e.positionMicros)
        json.key("at"); json.seconds(micros: wall)
        json.endObject()
    }

    /// The six states of the file for the host's state (see the type's documentation).
    package static func fileState(_ s: PlaybackStateInfo) -> (state: String, playerState: String) {
        switch s.state {
        case .playing: ("playing", "playing")
        case .loading: ("loading", "loading")
        case .paused: ("paused", "paused")
        case .stopped: ("stopped", "stopped")
        case .complete: ("stopped", "complete")
        case .stalled: ("stalled", "stalled")
        case .interrupted: ("interrupted", "interrupted")
        case nil: ("stopped", "unknown-\(s.rawState)")
        }
    }
}
