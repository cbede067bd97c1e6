/// Swift copies of the events in `motet/plugin.h`. Fields past the ABI 1.0 baseline are read
/// only when the event's `struct_size` covers them (nil otherwise).

/// `MOTET_EVENT_NOW_PLAYING`: what is playing now, in full.
public struct NowPlayingInfo: Sendable, Equatable {
    /// False means "nothing playing": clear what you show. Every other field is then empty.
    public var hasTrack: Bool
    /// The TITLE tag, else the file's name without `.ogg`/`.oga`/`.opus`; nil when neither.
    public var title: String?
    /// All artists joined with ", ".
    public var artist: String?
    /// Each ARTIST tag, in the file's order (empty when there is none).
    public var artists: [String]
    /// The ALBUM tag, or nil.
    public var album: String?
    /// The track's length in microseconds; nil when unknown (a live stream).
    public var durationMicros: Int64?
    /// What has been heard, sampled at `elapsedAtMicros` (CLOCK_MONOTONIC).
    public var elapsedMicros: Int64?
    /// When `elapsedMicros` was sampled, in CLOCK_MONOTONIC microseconds: the position now is
    /// `elapsedMicros + (now - elapsedAtMicros) * rate`.
    public var elapsedAtMicros: Int64
    /// 1.0 playing, 0.0 paused.
    public var rate: Double
    /// The cover art, or nil.
    public var artwork: ArtworkInfo?
    /// The file being played, or nil for a stream.
    public var filePath: String?
    /// The URL being played (a stream), or nil for a local file (ABI 1.1).
    public var url: String?
    /// The station's name (icy-name), or nil (ABI 1.1).
    public var station: String?
    /// The station's icy-description, or nil (ABI 1.1).
    public var stationDescription: String?
    /// The station's icy-genre, or nil (ABI 1.1).
    public var stationGenre: String?
    /// The station's home page (icy-url; not the stream's URL), or nil (ABI 1.1).
    public var stationURL: String?
    /// The track this is about (>= 1; 0 with `hasTrack` false): name it in
    /// `MotetHost.send(_:track:)` so that a command meant for it is not applied to the next one.
    public var trackID: UInt64
    /// The user liked this track (a like button shows as on).
    public var likeActive: Bool
    /// The user disliked this track.
    public var dislikeActive: Bool
    /// A next command would be taken now (there is a next track and a skip left).
    public var nextEnabled: Bool
    /// A previous command would be taken now.
    public var previousEnabled: Bool
    /// Why `nextEnabled` is false, as one human line to show beside a disabled next button ("no
    /// skip left (--skip-limit)"); nil while next is enabled, and from hosts before ABI 1.3.
    public var nextDisabledReason: String?

    /// Copies the C event. Everything is copied: the event's pointers are only borrowed.
    public init(_ e: UnsafePointer<motet_now_playing>) {
        let p = e.pointee
        hasTrack = p.present & MOTET_NP_HAS_TRACK != 0
        title = MotetHost.string(p.title)
        artist = MotetHost.string(p.artist)
        artists = MotetHost.strings(p.artists, count: p.artist_count)
        album = MotetHost.string(p.album)
        durationMicros = p.present & MOTET_NP_HAS_DURATION != 0 ? p.duration_us : nil
        elapsedMicros = p.present & MOTET_NP_HAS_ELAPSED != 0 ? p.elapsed_us : nil
        elapsedAtMicros = p.elapsed_at_us
        rate = p.rate
        if p.present & MOTET_NP_HAS_ARTWORK != 0, let data = p.artwork_data {
            artwork = ArtworkInfo(
                bytes: Array(UnsafeBufferPointer(start: data, count: Int(p.artwork_size))),
                mime: MotetHost.string(p.artwork_mime) ?? "application/octet-stream",
                id: MotetHost.string(p.artwork_id) ?? "",
                path: MotetHost.string(p.artwork_path))
        } else {
            artwork = nil
        }
        filePath = MotetHost.string(p.file_path)
        let v11 = p.struct_size >= MOTET_NOW_PLAYING_SIZE_1_1
        url = v11 ? MotetHost.string(p.url) : nil
        station = v11 ? MotetHost.string(p.station) : nil
        stationDescription = v11 ? MotetHost.string(p.station_description) : nil
        stationGenre = v11 ? MotetHost.string(p.station_genre) : nil
        stationURL = v11 ? MotetHost.string(p.station_url) : nil
        trackID = p.track_id
        likeActive = p.flags & MOTET_NP_LIKE_ACTIVE != 0
        dislikeActive = p.flags & MOTET_NP_DISLIKE_ACTIVE != 0
        nextEnabled = p.flags & MOTET_NP_NEXT_ENABLED != 0
        previousEnabled = p.flags & MOTET_NP_PREVIOUS_ENABLED != 0
        nextDisabledReason = p.struct_size >= MOTET_NOW_PLAYING_SIZE_1_3 ? MotetHost.string(p.next_disabled_reason) : nil
    }
}

/// Cover art of the track: the bytes, their MIME type, a stable id and a cached file.
public struct ArtworkInfo: Sendable, Equatable {
    /// The image bytes (a copy: keep them as long as you like).
    public var bytes: [UInt8]
    /// e.g. "image/png".
    public var mime: String
    /// Same id, same bytes.
    public var id: String
    /// A file with the same bytes, for URIs (MPRIS artUrl, notification image-path).
    public var path: String?

    /// Artwork with these bytes, type, id and cached file.
    public init(bytes: [UInt8], mime: String, id: String, path: String?) {
        self.bytes = bytes
        self.mime = mime
        self.id = id
        self.path = path
    }
}

/// `MOTET_EVENT_PLAYBACK_STATE`.
public struct PlaybackStateInfo: Sendable, Equatable {
    /// `MOTET_PLAYBACK_*`: stopped, loading (opening a track), playing, paused, stalled (waiting
    /// for data or a device; see `stalledReason`), complete (the queue ended), interrupted
    /// (another stream has the sound, e.g. a call).
    public enum State: UInt32, Sendable {
        case stopped = 0, loading, playing, paused, stalled, complete, interrupted
    }
    /// nil for a state this kit does not know yet (a newer host).
    public var state: State?
    /// The state's number as the host sent it (for a state this kit does not know).
    public var rawState: UInt32
    /// The player's volume, 0 to 100.
    public var volumePercent: Int
    /// The queue plays in a random order.
    public var shuffle: Bool
    /// The queue starts again when it ends (--loop).
    public var loop: Bool
    /// The current track can be sought (false for a live stream).
    public var canSeek: Bool
    /// False with `remote-commands = no`: every command a plugin sends is refused.
    public var remoteCommands: Bool
    /// Why, while `state` is `.stalled` (ABI 1.1).
    public enum StalledReason: UInt32, Sendable {
        case none = 0, buffering, deviceLost
    }
    /// nil from an ABI 1.0 host, or for a reason this kit does not know.
    public var stalledReason: StalledReason?

    /// Copies the C event.
    public init(_ e: UnsafePointer<motet_playback_state>) {
        let p = e.pointee
        rawState = p.state
        state = State(rawValue: p.state)
        volumePercent = Int(p.volume_percent)
        shuffle = p.shuffle != 0
        loop = p.loop == MOTET_LOOP_PLAYLIST
        canSeek = p.can_seek != 0
        remoteCommands = p.remote_commands != 0
        stalledReason = p.struct_size >= MOTET_PLAYBACK_STATE_SIZE_1_1 ? StalledReason(rawValue: p.stalled_reason) : nil
    }
}

/// `MOTET_EVENT_TRACK_FINISHED`.
public struct TrackFinishedInfo: Sendable, Equatable {
    /// Played to its end, skipped (next, previous, a dislike), stopped (stop or quit), or failed
    /// (it could not be decoded).
    public enum Reason: UInt32, Sendable {
        case completed = 0, skipped, stopped, failed
    }
    /// False when decoding failed.
    public var successfully: Bool
    /// nil for a reason this kit does not know yet.
    public var reason: Reason?
    /// The track that finished (the `trackID` of its now-playing events).
    public var trackID: UInt64
    /// Its file, or nil for a stream.
    public var filePath: String?
    /// Its title, as in `NowPlayingInfo.title`.
    public var title: String?
    /// ABI 1.1 (nil from an older host): the whole track, what a scrobbler submits.
    public var track: MotetTrack?
    /// How much of it was heard, in microseconds (a seek skips, a pause does not count).
    public var heardMicros: Int64?
    /// The position reached, in microseconds.
    public var positionMicros: Int64?
    /// Wall-clock time (Unix microseconds) its first frame was heard; nil if never (or 1.0 host).
    public var firstHeardUnixMicros: Int64?

    /// Copies the C event.
    public init(_ e: UnsafePointer<motet_track_finished>) {
        let p = e.pointee
        successfully = p.successfully != 0
        reason = Reason(rawValue: p.reason)
        trackID = p.track_id
        filePath = MotetHost.string(p.file_path)
        title = MotetHost.string(p.title)
        if p.struct_size >= MOTET_TRACK_FINISHED_SIZE_1_1 {
            track = p.track.map(MotetTrack.init)
            heardMicros = p.heard_us
            positionMicros = p.position_us
            firstHeardUnixMicros = p.first_heard_unix_us >= 0 ? p.first_heard_unix_us : nil
        }
    }
}

/// `motet_track` (ABI 1.1): one track as the track events describe it.
public struct MotetTrack: Sendable, Equatable {
    /// >= 1; the `trackID` of its now-playing events.
    public var trackID: UInt64
    /// As in `NowPlayingInfo.title`.
    public var title: String?
    /// All artists joined with ", ".
    public var artist: String?
    /// Each ARTIST tag, in the file's order.
    public var artists: [String]
    /// The ALBUM tag, or nil.
    public var album: String?
    /// Its length in microseconds; nil when unknown (a live stream).
    public var durationMicros: Int64?
    /// The file, or nil for a stream.
    public var filePath: String?
    /// The URL, or nil for a local file.
    public var url: String?
    /// The station's name (icy-name), or nil.
    public var station: String?
    /// The station's icy-description, icy-genre and home page (icy-url), or nil.
    public var stationDescription: String?
    /// The station's genre (icy-genre), or nil.
    public var stationGenre: String?
    /// The station's home page (icy-url), or nil.
    public var stationURL: String?
    /// As `ArtworkInfo.id` in now-playing; nil when the track has no artwork.
    public var artworkID: String?

    /// Copies the C track.
    public init(_ t: UnsafePointer<motet_track>) {
        let p = t.pointee
        trackID = p.track_id
        title = MotetHost.string(p.title)
        artist = MotetHost.string(p.artist)
        artists = MotetHost.strings(p.artists, count: p.artist_count)
        album = MotetHost.string(p.album)
        durationMicros = p.present & MOTET_TRACK_HAS_DURATION != 0 ? p.duration_us : nil
        filePath = MotetHost.string(p.file_path)
        url = MotetHost.string(p.url)
        station = MotetHost.string(p.station)
        artworkID = MotetHost.string(p.artwork_id)
        let full = p.struct_size >= MOTET_TRACK_SIZE_1_1
        stationDescription = full ? MotetHost.string(p.station_description) : nil
        stationGenre = full ? MotetHost.string(p.station_genre) : nil
        stationURL = full ? MotetHost.string(p.station_url) : nil
    }
}

/// `MOTET_EVENT_TRACK_STARTED` (ABI 1.1): a track became current (also while paused).
public struct TrackStartedInfo: Sendable, Equatable {
    /// Why it became current.
    public enum Reason: UInt32, Sendable {
        /// The previous track ended, or the first track of the run.
        case natural = 0
        /// Next, or a dislike that skipped.
        case next
        case previous
        /// The queue started again under --loop.
        case loop
        /// Asked for explicitly: play after stop, a seek past the end, open URI.
        case request
    }
    /// The track, in full.
    public var track: MotetTrack
    /// nil for a reason this kit does not know yet.
    public var reason: Reason?
    /// Wall-clock time (Unix microseconds) it became current.
    public var startedAtUnixMicros: Int64

    /// Copies the C event; nil when it carries no track.
    public init?(_ e: UnsafePointer<motet_track_started>) {
        let p = e.pointee
        guard let track = p.track else { return nil }
        self.track = MotetTrack(track)
        reason = Reason(rawValue: p.reason)
        startedAtUnixMicros = p.started_at_unix_us
    }
}

/// `MOTET_EVENT_SEEKED` (ABI 1.1): a seek that was asked for has been made.
public struct SeekedInfo: Sendable, Equatable {
    /// The track that was sought.
    public var trackID: UInt64
    /// Where the track is now, in microseconds.
    public var positionMicros: Int64

    /// Copies the C event.
    public init(_ e: UnsafePointer<motet_seeked>) {
        trackID = e.pointee.track_id
        positionMicros = e.pointee.position_us
    }
}

/// `MOTET_EVENT_DECODE_ERROR`.
public struct DecodeErrorInfo: Sendable, Equatable {
    /// libvorbisfile's code (`OV_*`, negative) for Vorbis, libopusfile's (`OP_*`, the same numbers)
    /// for Opus, or -1000 for an error on the host's side.
    public var code: Int32
    /// One human line saying what went wrong.
    public var message: String
    /// The file, or nil for a stream.
    public var filePath: String?
    /// Where in the track, in microseconds; nil when unknown.
    public var positionMicros: Int64?
    /// The track it happened in (0 when none was current yet).
    public var trackID: UInt64

    /// Copies the C event.
    public init(_ e: UnsafePointer<motet_decode_error>) {
        let p = e.pointee
        code = p.code
        message = MotetHost.string(p.message) ?? ""
        filePath = MotetHost.string(p.file_path)
        positionMicros = p.position_us >= 0 ? p.position_us : nil
        trackID = p.track_id
    }
}

/// Why playback was interrupted.
public enum InterruptionKind: Sendable, Equatable {
    /// The sound server paused Motet for another stream (a call: PulseAudio's cork).
    case corked
    /// The output device went away; Motet waits for it (or another) to come back.
    case deviceLost
    /// A reason this kit does not know yet, with its number.
    case unknown(UInt32)

    init(_ raw: UInt32) {
        switch raw {
        case MOTET_INTERRUPTION_CORKED: self = .corked
        case MOTET_INTERRUPTION_DEVICE_LOST: self = .deviceLost
        default: self = .unknown(raw)
        }
    }
}

extension TrackFinishedInfo.Reason {
    /// A stable lower-case word for logs and files: "completed", "skipped", "stopped", "failed".
    public var name: String {
        switch self {
        case .completed: "completed"
        case .skipped: "skipped"
        case .stopped: "stopped"
        case .failed: "failed"
        }
    }
}

extension InterruptionKind {
    /// A stable lower-case word for logs and files: "corked", "device-lost", "unknown-N".
    public var name: String {
        switch self {
        case .corked: "corked"
        case .deviceLost: "device-lost"
        case .unknown(let raw): "unknown-\(raw)"
        }
    }
}
