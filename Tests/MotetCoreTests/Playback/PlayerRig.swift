import MotetConfiguration
@testable import MotetPlayback
import MotetSystem
import MotetLikes

/// The state machine with a scripted engine and a hand-moved clock, plus the decoder's and the
/// sink's side of the conversation as one-line calls. Everything the machine says is recorded.
final class PlayerRig {
    let engine = ScriptedEngine()
    let machine: PlayerStateMachine
    let configuration: PlayerConfiguration
    private let clock: ManualClock
    private(set) var events: [PlayerEvent] = []
    private(set) var messages: [String] = []
    private(set) var displays: [PlayerDisplay] = []
    private var nextSegmentID: UInt64 = 1
    private var nextTrackID: UInt64 = 1
    /// Frames the sink has written in the current epoch.
    private var written: Int64 = 0
    private var writtenEpoch = 0
    static let rate = 44100

    final class ManualClock {
        var micros: Int64 = 1_000_000_000
    }

    init(
        files: [String]? = nil, tracks: Int = 3, loop: Bool = false, skipLimit: (count: Int, minutes: Int)? = nil, volume: Int = 100,
        displayInterval: Duration? = nil, feedbackDirectory: String? = nil, crossfade: Duration = .zero
    ) {
        var c = PlayerConfiguration(files: files ?? (1...tracks).map { "/music/\($0).ogg" }, artworkCacheDirectory: "/nonexistent")
        c.loop = loop
        c.skipLimit = skipLimit
        c.volume = volume
        c.displayInterval = displayInterval
        c.feedbackDirectory = feedbackDirectory
        c.crossfade = crossfade
        configuration = c
        let clock = ManualClock()
        self.clock = clock
        let box = Recorder()
        let queue = PlayQueue(files: c.files, shuffle: false, loop: loop)
        engine.queue = queue
        machine = PlayerStateMachine(
            configuration: c, queue: queue, engine: engine,
            answers: CommandAnswers(), feedback: c.feedbackDirectory.map { FeedbackStore(directory: $0) }, now: { MonotonicInstant(microseconds: clock.micros) }, wallNow: { 1_700_000_000_000_000 + clock.micros },
            outputs: .init(
                events: { box.events.append($0) }, display: { box.displays.append($0) },
                message: { box.messages.append($0) }))
        recorder = box
        engine.heardNow.at = MonotonicInstant(microseconds: clock.micros)
        machine.start()
    }

    private final class Recorder {
        var events: [PlayerEvent] = []
        var messages: [String] = []
        var displays: [PlayerDisplay] = []
    }
    private let recorder: Recorder

    // MARK: - What the machine said

    var allEvents: [PlayerEvent] { recorder.events }
    var allMessages: [String] { recorder.messages }
    var allDisplays: [PlayerDisplay] { recorder.displays }
    /// Forgets what was said so far.
    func clearRecords() {
        recorder.events.removeAll()
        recorder.messages.removeAll()
        recorder.displays.removeAll()
    }

    var nowPlaying: NowPlaying? {
        for case .nowPlaying(let np) in recorder.events.reversed() { return np }
        return nil
    }
    var lastState: PlaybackState? {
        for case .playbackState(let s) in recorder.events.reversed() { return s }
        return nil
    }
    var finished: [TrackFinished] { recorder.events.compactMap { if case .trackFinished(let f) = $0 { f } else { nil } } }
    var interruptions: [String] {
        recorder.events.compactMap {
            switch $0 {
            case .interruptionBegan(let r): "began \(r)"
            case .interruptionEnded(let r): "ended \(r)"
            default: nil
            }
        }
    }
    var status: PlaybackStatus { machine.status }

    // MARK: - Time

    func advance(micros: Int64) {
        clock.micros += micros
        engine.heardNow.at = MonotonicInstant(microseconds: clock.micros)
    }
    func advance(_ span: Duration) { advance(micros: span.microseconds) }
    /// The machine's clock now.
    var now: MonotonicInstant { MonotonicInstant(microseconds: clock.micros) }

    // MARK: - The decoder's side

    /// The decoder opened play-order `position` (a seek reopens with the reused id, from `startMicros`).
    @discardableResult
    func open(
        _ position: Int, startMicros: Int64 = 0, durationMicros: Int64 = 180_000_000, title: String? = nil,
        stream: StreamSegment? = nil
    ) -> SegmentInfo {
        let info = segment(position, startMicros: startMicros, durationMicros: durationMicros, title: title, stream: stream)
        machine.handle(inbox: [.decoder(.segmentOpened(info))], output: [])
        return info
    }

    /// The segment the decoder opens for `position`, not yet reported (`open` reports it).
    func segment(
        _ position: Int, startMicros: Int64 = 0, durationMicros: Int64 = 180_000_000, title: String? = nil,
        stream: StreamSegment? = nil
    ) -> SegmentInfo {
        syncEpoch()
        let reuse = engine.repositions.last.flatMap { $0.position == position ? $0.reuseTrackID : nil }
        let trackID: UInt64
        if let reuse, !openedSinceReposition { trackID = reuse } else {
            trackID = nextTrackID
            nextTrackID += 1
        }
        openedSinceReposition = true
        engine.lastDecoded = position
        var info = SegmentInfo(
            segmentID: nextSegmentID, generation: engine.generation, trackID: trackID, orderPosition: position,
            path: configuration.files[position],
            metadata: TrackMetadata(title: title ?? "Track \(position + 1)", artists: ["Artist"], album: "Album"),
            artwork: nil, format: AudioFormat(sampleRate: Self.rate, channels: 2), fileStart: .microseconds(startMicros),
            duration: stream?.live == true ? nil : .microseconds(durationMicros), canSeek: stream?.live != true)
        if let stream {
            info.url = configuration.files[position]
            info.station = stream.station
            info.isLive = stream.live
        }
        nextSegmentID += 1
        return info
    }
    /// What the network layer adds to a segment that comes over HTTP.
    struct StreamSegment {
        var station: StationInfo?
        var live: Bool
    }
    private var openedSinceReposition = false
    private var repositionsSeen = 0

    // MARK: - The sink's side

    /// The segment's first frame went to the device, after `frames` more of what came before.
    func write(_ info: SegmentInfo, after frames: Int64 = 0) {
        output(boundary(info, after: frames))
    }

    /// The sink's news that the segment's first frame went to the device, after `frames` more of
    /// what came before, not yet taken (`write` hands it over).
    func boundary(_ info: SegmentInfo, after frames: Int64 = 0) -> OutputEvent {
        syncEpoch()
        written += frames
        return .segmentWritten(SegmentBoundary(segmentID: info.segmentID, epoch: engine.heardNow.epoch, frame: written))
    }

    /// The device has played `frames` more.
    func hear(_ frames: Int64) {
        syncEpoch()
        engine.heardNow.frames += frames
        engine.heardNow.at = MonotonicInstant(microseconds: clock.micros)
        written = max(written, engine.heardNow.frames)
        machine.tick()
    }

    /// Opens, writes and hears the first frame of `position`: it is playing.
    @discardableResult
    func play(_ position: Int, after frames: Int64 = 0) -> SegmentInfo {
        let info = open(position)
        write(info, after: frames)
        hear(frames + 1)
        return info
    }

    func output(_ events: OutputEvent...) {
        machine.handle(inbox: [], output: events)
    }

    private func syncEpoch() {
        if engine.repositions.count != repositionsSeen {
            repositionsSeen = engine.repositions.count
            openedSinceReposition = false
            written = 0
        }
        if writtenEpoch != engine.heardNow.epoch {
            writtenEpoch = engine.heardNow.epoch
            written = 0
        }
    }

    // MARK: - The user's side

    func send(_ commands: PlayerCommand..., from source: CommandSource = .user) {
        syncEpoch()
        machine.handle(inbox: commands.map { .command($0, source) }, output: [])
    }
}
