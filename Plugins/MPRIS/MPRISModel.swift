import MotetPluginKit

/// What the MPRIS object shows, rebuilt from the player's events.
///
/// A plain value: the plugin's queue writes it (under the server's lock) when an event arrives,
/// the bus thread reads copies of it to answer property reads and to find what changed.
struct MPRISModel: Sendable {
    /// The track playing now; nil when nothing is playing.
    var track: MPRISTrack?
    var liked = false
    var disliked = false
    var nextEnabled = false
    var previousEnabled = false
    /// What had been heard at `elapsedAtMicros` (CLOCK_MONOTONIC), and how fast it grows.
    var elapsedMicros: Int64 = 0
    var elapsedAtMicros: Int64 = 0
    var rate: Double = 0
    /// The transport state of the last playback-state event; nil before the first one.
    var state: PlaybackStateInfo.State?
    /// The MPRIS PlaybackStatus; kept across states that do not map to one (loading).
    var status: MPRISPlaybackStatus = .stopped
    var volumePercent = 100
    var shuffle = false
    var loopPlaylist = false
    var canSeek = false
    var remoteCommands = true
    /// Positions of the seeks the player made since the bus thread last looked, in order: each
    /// becomes one `Seeked` signal (the player says when it seeked; nothing is guessed).
    var seeks: [Int64] = []

    /// Takes in a now-playing snapshot.
    mutating func apply(_ info: NowPlayingInfo) {
        guard info.hasTrack else {
            track = nil
            liked = false
            disliked = false
            nextEnabled = info.nextEnabled
            previousEnabled = info.previousEnabled
            elapsedMicros = 0
            elapsedAtMicros = info.elapsedAtMicros
            rate = 0
            seeks = []
            // Nothing is playing: that is Stopped, whatever state event follows (at the end of the
            // queue the now-playing event comes first; clients must not see an empty `Playing`).
            status = .stopped
            return
        }
        let next = MPRISTrack(info)
        let elapsed = info.elapsedMicros ?? 0
        if track?.trackID != next.trackID {
            seeks = []  // a new track announces itself through Metadata, not Seeked
        }
        track = next
        liked = info.likeActive
        disliked = info.dislikeActive
        nextEnabled = info.nextEnabled
        previousEnabled = info.previousEnabled
        elapsedMicros = elapsed
        elapsedAtMicros = info.elapsedAtMicros
        rate = info.rate > 0 ? info.rate : 0
        if state == nil { status = rate > 0 ? .playing : .paused }
    }

    /// Takes in a seeked event (ABI 1.1), received at monotonic time `now`: the position is known
    /// at once, so a client that reads `Position` on `Seeked` gets the new one.
    mutating func apply(_ event: SeekedInfo, at now: Int64) {
        guard let track, track.trackID == event.trackID else { return }
        elapsedMicros = max(0, event.positionMicros)
        elapsedAtMicros = now
        seeks.append(elapsedMicros)
    }

    /// Takes in a playback-state event.
    mutating func apply(_ event: PlaybackStateInfo) {
        state = event.state
        if let mapped = MPRISPlaybackStatus(event.state, stalledReason: event.stalledReason) { status = mapped }
        volumePercent = min(max(event.volumePercent, 0), 100)
        shuffle = event.shuffle
        loopPlaylist = event.loop
        canSeek = event.canSeek
        remoteCommands = event.remoteCommands
    }

    /// The position at monotonic time `now`: the last snapshot moved on at its rate, within the track.
    func position(at now: Int64) -> Int64 {
        guard let track else { return 0 }
        var p = elapsedMicros
        if rate > 0, now > elapsedAtMicros { p += Int64(Double(now - elapsedAtMicros) * rate) }
        if let d = track.durationMicros, d > 0 { p = min(p, d) }
        return max(0, p)
    }

    /// The object path clients pass back to SetPosition.
    var trackObjectPath: String { track.map { MPRISTrack.objectPath($0.trackID) } ?? MPRISTrack.noTrackPath }

    /// The `Metadata` dictionary.
    var metadata: MPRISMetadata {
        guard let track else { return MPRISMetadata(trackID: MPRISTrack.noTrackPath) }
        return MPRISMetadata(
            trackID: MPRISTrack.objectPath(track.trackID),
            lengthMicros: track.durationMicros,
            artURL: track.artworkPath.map(FileURI.make),
            title: track.title ?? track.station,
            artists: track.artists,
            album: track.album,
            url: track.url ?? track.filePath.map(FileURI.make),
            userRating: liked ? 1.0 : disliked ? 0.0 : nil)
    }

    /// Every property of `org.mpris.MediaPlayer2.Player` that announces its changes
    /// (all but Position and CanControl), by name.
    var playerProperties: [(String, MPRISValue)] {
        let control = remoteCommands
        return [
            ("PlaybackStatus", .string(status.rawValue)),
            ("LoopStatus", .string(loopPlaylist ? "Playlist" : "None")),
            ("Rate", .double(1.0)),
            ("Shuffle", .bool(shuffle)),
            ("Metadata", .metadata(metadata)),
            ("Volume", .double(Double(volumePercent) / 100.0)),
            ("MinimumRate", .double(1.0)),
            ("MaximumRate", .double(1.0)),
            ("CanGoNext", .bool(control && nextEnabled)),
            ("CanGoPrevious", .bool(control && previousEnabled)),
            ("CanPlay", .bool(control && state != .complete)),
            ("CanPause", .bool(control && track != nil)),
            ("CanSeek", .bool(control && canSeek && track != nil)),
        ]
    }

    /// Every property of the vendor interface `org.motet.Feedback`, by name.
    var feedbackProperties: [(String, MPRISValue)] {
        [("Liked", .bool(liked)), ("Disliked", .bool(disliked))]
    }

    /// What OpenUri accepts: files, and Ogg Vorbis over HTTP(S).
    static let uriSchemes = ["file", "http", "https"]

    /// The constant properties of `org.mpris.MediaPlayer2`.
    static let rootProperties: [(String, MPRISValue)] = [
        ("CanQuit", .bool(true)),
        ("CanRaise", .bool(false)),
        ("HasTrackList", .bool(false)),
        ("Identity", .string("Motet")),
        ("DesktopEntry", .string("motet")),
        ("SupportedUriSchemes", .strings(MPRISModel.uriSchemes)),
        ("SupportedMimeTypes", .strings(["audio/ogg", "audio/vorbis", "audio/x-vorbis+ogg"])),
    ]
}

/// The three values of MPRIS `PlaybackStatus`.
enum MPRISPlaybackStatus: String, Sendable {
    case playing = "Playing", paused = "Paused", stopped = "Stopped"

    /// nil for states that say nothing about it (loading, or a state from a newer host).
    /// Stalled while buffering (a stream waiting for the network) is Playing: the user asked to
    /// play and it goes on by itself; stalled because the device is lost (or for a reason an
    /// ABI 1.0 host cannot say) is Paused, as the sound stopped and nobody knows for how long.
    init?(_ state: PlaybackStateInfo.State?, stalledReason: PlaybackStateInfo.StalledReason? = nil) {
        switch state {
        case .playing: self = .playing
        case .stalled where stalledReason == .buffering: self = .playing
        case .paused, .interrupted, .stalled: self = .paused
        case .stopped, .complete: self = .stopped
        case .loading, nil: return nil
        }
    }
}
