#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetPluginABI

/// What an instance's queue holds: an event from the player, or one of the host's own.
enum QueuedEvent: Sendable {
    case player(PlayerEvent)
    /// The queue dropped the events of this many tracks just before this one (ABI 1.1).
    case tracksLost(Int)
    case shutdown
}

extension PlayerEvent {
    /// Events an ABI 1.0 plugin never gets (types 8 to 10).
    var isNewInABI1_1: Bool {
        switch self {
        case .trackStarted, .seeked: true
        default: false
        }
    }
}

/// The one place where the engine's Swift events become the C structs of `motet/plugin.h`.
///
/// Every pointer in the C struct (strings, the artists array, the artwork bytes) lives exactly
/// for the duration of `body`: that is the lifetime the header promises ("borrowed for the
/// duration of the call"), and nothing is left to free afterwards.
enum PluginEventMapping {
    /// Builds the C event for `event` and calls `body` with it.
    static func withCEvent(_ event: QueuedEvent, _ body: (UnsafePointer<motet_event>) -> Void) {
        let strings = CStringArena()
        defer { withExtendedLifetime(strings) {} }
        switch event {
        case .shutdown:
            var e = motet_event(struct_size: UInt32(MemoryLayout<motet_event>.size), type: MOTET_EVENT_SHUTDOWN)
            pass(&e, body)
        case .player(.nowPlaying(let now)):
            withNowPlaying(now, strings, body)
        case .player(.playbackState(let state)):
            var e = motet_playback_state()
            e.struct_size = UInt32(MemoryLayout<motet_playback_state>.size)
            e.type = MOTET_EVENT_PLAYBACK_STATE
            e.state = state.status.rawValue
            e.volume_percent = UInt32(min(max(state.volumePercent, 0), 100))
            e.shuffle = state.shuffle ? 1 : 0
            e.loop = state.loop ? MOTET_LOOP_PLAYLIST : MOTET_LOOP_NONE
            e.can_seek = state.canSeek ? 1 : 0
            e.remote_commands = state.remoteCommands ? 1 : 0
            e.stalled_reason = state.status == .stalled ? state.stalledReason.rawValue : MOTET_STALLED_NONE
            pass(&e, body)
        case .player(.trackStarted(let started)):
            withTrack(started.track, strings) { track in
                var e = motet_track_started()
                e.struct_size = UInt32(MemoryLayout<motet_track_started>.size)
                e.type = MOTET_EVENT_TRACK_STARTED
                e.reason = started.reason.rawValue
                e.track = track
                e.started_at_unix_us = started.startedAtUnixMicros
                pass(&e, body)
            }
        case .player(.seeked(let seeked)):
            var e = motet_seeked()
            e.struct_size = UInt32(MemoryLayout<motet_seeked>.size)
            e.type = MOTET_EVENT_SEEKED
            e.track_id = seeked.trackID
            e.position_us = seeked.positionMicros
            pass(&e, body)
        case .tracksLost(let count):
            var e = motet_tracks_lost()
            e.struct_size = UInt32(MemoryLayout<motet_tracks_lost>.size)
            e.type = MOTET_EVENT_TRACKS_LOST
            e.count = UInt32(clamping: count)
            pass(&e, body)
        case .player(.trackFinished(let finished)):
            var e = motet_track_finished()
            e.struct_size = UInt32(MemoryLayout<motet_track_finished>.size)
            e.type = MOTET_EVENT_TRACK_FINISHED
            e.successfully = finished.successfully ? 1 : 0
            e.reason = finished.reason.rawValue
            e.track_id = finished.trackID
            e.file_path = strings.copy(finished.filePath)
            e.title = strings.copy(finished.title)
            e.heard_us = finished.heardMicros
            e.position_us = finished.positionMicros
            e.first_heard_unix_us = finished.firstHeardUnixMicros ?? -1
            let record = finished.track ?? TrackRecord(
                trackID: finished.trackID, title: finished.title, artists: [], album: nil, durationMicros: nil,
                filePath: finished.filePath)
            withTrack(record, strings) { track in
                e.track = track
                pass(&e, body)
            }
        case .player(.decodeError(let report)):
            var e = motet_decode_error()
            e.struct_size = UInt32(MemoryLayout<motet_decode_error>.size)
            e.type = MOTET_EVENT_DECODE_ERROR
            e.code = report.code
            e.message = strings.copy(report.message)
            e.file_path = strings.copy(report.filePath)
            e.position_us = report.positionMicros ?? -1
            e.track_id = report.trackID
            pass(&e, body)
        case .player(.interruptionBegan(let reason)):
            var e = interruption(MOTET_EVENT_INTERRUPTION_BEGAN, reason)
            pass(&e, body)
        case .player(.interruptionEnded(let reason)):
            var e = interruption(MOTET_EVENT_INTERRUPTION_ENDED, reason)
            pass(&e, body)
        }
    }

    /// Builds the `motet_track` for `record`, borrowed for the duration of `body`.
    private static func withTrack(
        _ record: TrackRecord, _ strings: CStringArena, _ body: (UnsafePointer<motet_track>) -> Void
    ) {
        var t = motet_track()
        t.struct_size = UInt32(MemoryLayout<motet_track>.size)
        t.track_id = record.trackID
        t.title = strings.copy(record.title)
        t.artist = strings.copy(record.joinedArtists)
        t.album = strings.copy(record.album)
        if let duration = record.durationMicros {
            t.present |= MOTET_TRACK_HAS_DURATION
            t.duration_us = duration
        }
        t.file_path = strings.copy(record.filePath)
        t.url = strings.copy(record.url)
        t.station = strings.copy(record.station?.name)
        t.station_description = strings.copy(record.station?.description)
        t.station_genre = strings.copy(record.station?.genre)
        t.station_url = strings.copy(record.station?.homepage)
        t.artwork_id = strings.copy(record.artworkID)
        let artists = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(record.artists.count, 1))
        defer { artists.deallocate() }
        for (i, name) in record.artists.enumerated() { artists[i] = strings.copy(name) }
        if !record.artists.isEmpty {
            t.artists = UnsafePointer(artists)
            t.artist_count = UInt32(record.artists.count)
        }
        withUnsafePointer(to: &t) { body($0) }
    }

    private static func withNowPlaying(
        _ now: NowPlaying, _ strings: CStringArena, _ body: (UnsafePointer<motet_event>) -> Void
    ) {
        var e = motet_now_playing()
        e.struct_size = UInt32(MemoryLayout<motet_now_playing>.size)
        e.type = MOTET_EVENT_NOW_PLAYING
        e.elapsed_at_us = now.elapsedAtMicros
        e.rate = now.rate
        guard let track = now.track else {
            // "Nothing playing": no HAS_TRACK, every pointer NULL, no flags.
            pass(&e, body)
            return
        }
        e.present = MOTET_NP_HAS_TRACK
        e.flags = (now.liked ? MOTET_NP_LIKE_ACTIVE : 0) | (now.disliked ? MOTET_NP_DISLIKE_ACTIVE : 0)
            | (now.nextEnabled ? MOTET_NP_NEXT_ENABLED : 0) | (now.previousEnabled ? MOTET_NP_PREVIOUS_ENABLED : 0)
        e.title = strings.copy(track.title)
        e.artist = strings.copy(track.joinedArtists)
        e.album = strings.copy(track.album)
        e.file_path = strings.copy(track.filePath)
        e.url = strings.copy(track.url)
        e.station = strings.copy(track.station?.name)
        e.station_description = strings.copy(track.station?.description)
        e.station_genre = strings.copy(track.station?.genre)
        e.station_url = strings.copy(track.station?.homepage)
        e.next_disabled_reason = strings.copy(now.nextEnabled ? nil : now.nextDisabledReason?.text)
        e.track_id = now.trackID
        if let duration = track.durationMicros {
            e.present |= MOTET_NP_HAS_DURATION
            e.duration_us = duration
        }
        if let elapsed = now.elapsedMicros {
            e.present |= MOTET_NP_HAS_ELAPSED
            e.elapsed_us = elapsed
        }
        let artists = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(track.artists.count, 1))
        defer { artists.deallocate() }
        for (i, name) in track.artists.enumerated() { artists[i] = strings.copy(name) }
        if !track.artists.isEmpty {
            e.artists = UnsafePointer(artists)
            e.artist_count = UInt32(track.artists.count)
        }
        guard let artwork = track.artwork, !artwork.bytes.isEmpty else {
            pass(&e, body)
            return
        }
        artwork.bytes.withUnsafeBufferPointer { bytes in
            e.present |= MOTET_NP_HAS_ARTWORK
            e.artwork_data = bytes.baseAddress
            e.artwork_size = UInt64(bytes.count)
            e.artwork_mime = strings.copy(artwork.mime)
            e.artwork_id = strings.copy(artwork.id)
            e.artwork_path = strings.copy(artwork.path)
            pass(&e, body)
        }
    }

    private static func interruption(_ type: UInt32, _ reason: InterruptionReason) -> motet_interruption {
        var e = motet_interruption()
        e.struct_size = UInt32(MemoryLayout<motet_interruption>.size)
        e.type = type
        e.reason = reason.rawValue
        return e
    }

    /// Every event struct starts with `struct_size` and `type`: a plugin reads it as a
    /// `motet_event` first, exactly as C code casts it.
    private static func pass<T>(_ event: inout T, _ body: (UnsafePointer<motet_event>) -> Void) {
        withUnsafePointer(to: &event) { p in
            body(UnsafeRawPointer(p).assumingMemoryBound(to: motet_event.self))
        }
    }
}

/// C copies of strings that live until the arena is released (after the plugin's call returns).
final class CStringArena {
    private var copies: [UnsafeMutablePointer<CChar>] = []

    /// A NUL-terminated copy of `text` (cut at an embedded NUL), or NULL for nil.
    func copy(_ text: String?) -> UnsafePointer<CChar>? {
        guard let text, let copy = strdup(text) else { return nil }
        copies.append(copy)
        return UnsafePointer(copy)
    }

    deinit {
        for copy in copies { free(copy) }
    }
}
