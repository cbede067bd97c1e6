#if canImport(Glibc)
import Glibc
#endif
import MotetDecoding
import MotetEvents
import Synchronization
import MotetSystem
import MotetNetwork

/// The decoder thread: opens tracks (gaplessly, ahead of the sink), decodes them into the ring and
/// marks where each segment starts. Never touches the sink.
///
/// Each method's doc comment names its thread on its first line (`/// Control thread.`,
/// `/// Decoder thread.`), and the one-thread methods check it (`ThreadRole`).
final class DecodeWorker: @unchecked Sendable {
    // Unchecked: `thread` is set by the control thread before the decoder thread runs and read
    // only by it (join); everything the two threads share is an atomic, a lock or the ring.
    /// Asks the cursor what to decode next: a track, a wait or the end.
    typealias NextTrack = @Sendable () -> DecodeCursor.Next
    /// Reads an entry that is a playlist and reports its entries (`PlayedPlaylists`); the cursor
    /// then waits for the control thread to place them. Given the request, the playlist's content
    /// type (nil: read the entry as an input is), and whether the decoder must stop (a park or
    /// quit cancels the fetch).
    typealias ExpandEntry = @Sendable (TrackRequest, PlaylistContentType?, _ cancelled: @escaping @Sendable () -> Bool) -> Void

    let ring: SampleRing
    let markers: SPSCQueue<SegmentMarker>
    let spaceReady: CountingSemaphore
    let dataReady: CountingSemaphore
    let nextTrack: NextTrack
    let expandEntry: ExpandEntry
    /// Asked right after a track is opened: true passes it over (see `DislikedTracks`).
    let passOver: @Sendable (TrackRequest, TrackMetadata) -> Bool
    /// The entry at the second position is listed right after the one at the first (`PlayQueue.isListed`).
    let follows: @Sendable (Int, Int) -> Bool
    /// Takes what to fade out of after a reposition (`DecodeCursor.cut`).
    let takeCut: @Sendable () -> FadeFrom?
    let report: @Sendable (DecoderReport) -> Void
    let artworkStore: ArtworkStore
    let defaultArtwork: String?
    let replayGain: ReplayGainMode
    let network: NetworkOptions
    /// `--output-rate`: every file and stream opened is resampled to it (nil: none is).
    let outputRate: Int?
    /// The sink's heard position (for how long what is decoded lasts the listener).
    let heard: @Sendable () -> HeardNow
    /// The network stream being opened or read, if any: a park or quit interrupts its blocked read.
    /// `Locked`, not `Mutex`: ThreadSanitizer cannot see the latter (false races, see Locked).
    let blockingStream = Locked<NetworkStream?>(nil)

    let gate = WorkerGate()
    /// Set by the control thread while parked: close the open file before going on.
    let dropCurrent = Atomic<Bool>(false)
    let nextSegmentID = Atomic<UInt64>(1)
    let nextTrackID = Atomic<UInt64>(1)
    private var thread: PosixThread?
    /// The crossfade's state (`DecodeWorker+Crossfade.swift`). Decoder thread only, so not checked
    /// for exclusive access at run time (each check cost instructions on every read).
    @exclusivity(unchecked) var fade: FadeState
    /// The incoming track's frames during a crossfade, mixed into the outgoing one's.
    let mixScratch = UnsafeMutablePointer<Float>.allocate(capacity: DecodeWorker.mixCapacity)
    static let mixCapacity = 4096 * 8
    /// Samples buffered before the decoder wakes a waiting sink (0.37 s of 44.1 kHz stereo).
    static let wakeBatch = 32768
    /// Frames a read needs room for, at least (libvorbisfile hands out up to a packet at a time;
    /// a short read only costs another call).
    static let minimumReadFrames = 512
    /// The longest the decoder sleeps with nothing to do: every reason to go on (room in the
    /// ring, park, quit) wakes it, so this is only a safety net, not a tick.
    static let idle: Duration = .seconds(60)

    /// Control thread.
    /// `nextTrack`, `expandEntry`, `report` and `passOver` are called on the decoder thread
    /// (`report` also on a network stream's thread, for its notices).
    init(
        ring: SampleRing, markers: SPSCQueue<SegmentMarker>, spaceReady: CountingSemaphore,
        dataReady: CountingSemaphore, artworkStore: ArtworkStore, defaultArtwork: String?,
        replayGain: ReplayGainMode, crossfade: CrossfadeSettings = CrossfadeSettings(), network: NetworkOptions = NetworkOptions(),
        outputRate: Int? = nil,
        heard: @escaping @Sendable () -> HeardNow = { HeardNow(epoch: 0, frames: 0, framesPerSecond: 0, at: MonotonicInstant(nanoseconds: 0), limitFrames: 0) },
        nextTrack: @escaping NextTrack, expandEntry: @escaping ExpandEntry, report: @escaping @Sendable (DecoderReport) -> Void,
        passOver: @escaping @Sendable (TrackRequest, TrackMetadata) -> Bool = { _, _ in false },
        follows: @escaping @Sendable (Int, Int) -> Bool = { _, _ in false },
        takeCut: @escaping @Sendable () -> FadeFrom? = { nil }
    ) {
        self.takeCut = takeCut
        ThreadRole.control.check()
        self.fade = FadeState(settings: crossfade)
        self.follows = follows
        self.network = network
        self.outputRate = outputRate
        self.heard = heard
        self.passOver = passOver
        self.ring = ring
        self.markers = markers
        self.spaceReady = spaceReady
        self.dataReady = dataReady
        self.artworkStore = artworkStore
        self.defaultArtwork = defaultArtwork
        self.replayGain = replayGain
        self.nextTrack = nextTrack
        self.expandEntry = expandEntry
        self.report = report
    }

    deinit { mixScratch.deallocate() }

    /// Control thread.
    /// Starts the decoder thread.
    func start() {
        ThreadRole.control.check()
        thread = PosixThread(name: "motet-decode") { [self] in run() }
    }

    /// Control thread.
    /// Waits for the decoder thread to end.
    func join() {
        ThreadRole.control.check()
        thread?.join()
    }

    /// Control thread.
    /// Stops decoding at a safe point and waits until parked. A read blocked on the network
    /// returns at once (the stream is dropped after a park).
    func park() {
        ThreadRole.control.check()
        gate.park {
            spaceReady.post()
            interruptStream()
        }
    }

    /// Control thread.
    /// Lets the parked decoder thread go on.
    func unpark() {
        ThreadRole.control.check()
        gate.release()
    }

    /// Control thread.
    /// The cursor has something new for a decoder that waits on it.
    func wake() {
        ThreadRole.control.check()
        gate.wake()
    }

    /// Control thread.
    /// Asks the decoder thread to end; a blocked network read returns at once.
    func stop() {
        ThreadRole.control.check()
        gate.quit()
        spaceReady.post()
        interruptStream()
    }

    /// Control thread.
    /// Makes a read blocked on the network return (`park`, `stop`).
    private func interruptStream() {
        ThreadRole.control.check()
        blockingStream.withLock { $0?.interrupt() }
    }

    // MARK: Decoder thread

    /// Decoder thread.
    /// Its body: opens, decodes and reports track after track, until quit.
    private func run() {
        ThreadRole.decoder.enter()
        // Vorbis allows up to 255 channels: size reads by the link's channel count.
        let capacity = 4096 * 8
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer { scratch.deallocate() }
        var decoder: (any AudioDecoder)?
        /// The network stream `decoder` reads (nil for a local file): looked up once per open.
        var stream: NetworkStream?
        // The current track; its tags apart, as they are only needed at a new link (copying them
        // with the rest on every read cost instructions: bench/instructions.sh).
        var track: (id: UInt64, request: TrackRequest, gain: Float)?
        var trackTags: TrackMetadata?
        var exhausted = false
        /// A network stream reconnected since its current link began.
        var resumed = false
        /// The stream's bit rate, measured as it is decoded.
        var bitrate = BitrateMeter(from: 0)
        while !gate.isQuitting {
            if gate.parkIsRequested {
                gate.parkHere()
                if dropCurrent.exchange(false, ordering: .acquiringAndReleasing) {
                    decoder = nil
                    stream = nil
                    track = nil
                    blockingStream.withLock { $0 = nil }
                    exhausted = false
                    fade.repositioned()
                }
                continue
            }
            guard let open = decoder, let current = track else {
                endCut()
                // After a reposition with a fade: what played at the cut, from there, fades out first.
                if let cut = takeCut(), let opened = openCut(cut) {
                    decoder = opened.decoder
                    stream = nil
                    resumed = false
                    blockingStream.withLock { $0 = nil }
                    track = (cut.place.trackID, opened.request, opened.gain)
                    trackTags = opened.decoder.metadata
                    continue
                }
                if let h = fade.takeHandover() {
                    // The next track of a pair, opened ahead: it goes on (its segment started in
                    // the middle of a crossfade, else here).
                    decoder = h.decoder
                    stream = nil
                    resumed = false
                    blockingStream.withLock { $0 = nil }
                    if !h.announced { startSegment(h.decoder, trackID: h.id, request: h.request, gain: h.gain) }
                    track = (h.id, h.request, h.gain)
                    trackTags = h.decoder.metadata
                    continue
                }
                if exhausted {
                    gate.nap(for: Self.idle)  // a park or quit wakes it
                    continue
                }
                let request: TrackRequest
                switch fade.heldRequest.take().map(DecodeCursor.Next.track) ?? nextTrack() {
                case .track(let next):
                    request = next
                case .wait:
                    gate.nap(for: Self.idle)  // the control thread's answer (`wake`), a park or quit wakes it
                    continue
                case .end:
                    exhausted = true
                    pushMarker(SegmentMarker(sampleIndex: ring.writeIndex, segmentID: 0, sampleRate: 0, channels: 0, gain: 1, isEnd: true))
                    continue
                }
                do throws(DecoderError) {
                    // A playlist: its entries took its place in the queue, the first is next.
                    guard let d = try openRequest(request) else { continue }
                    // --skip-disliked is for finite tracks: a station is not left for the song on air.
                    if currentStream?.head?.isLive != true, passOver(request, d.metadata) { continue }
                    if request.start > .zero { try d.start(atMicros: request.start.microseconds) }
                    let id = request.reuseTrackID ?? takeTrackID()
                    let gain = d.metadata.replayGain.scale(replayGain)
                    decoder = d
                    stream = currentStream
                    resumed = false
                    bitrate = BitrateMeter(from: stream?.tell() ?? 0)
                    startSegment(d, trackID: id, request: request, gain: gain)
                    track = (id, request, gain)
                    trackTags = d.metadata
                    fade.opened(d)
                } catch {
                    // A park or quit interrupted the open: not the stream's fault.
                    if gate.mustStop { continue }
                    // An entry of a playlist names it too: the entry alone may not say where to fix it.
                    report(.openFailed(path: request.path, orderPosition: request.orderPosition, error: error, listedIn: request.origin.last))
                }
                continue
            }
            // Decode straight into the ring when a stretch of it is free without wrapping; near
            // the wrap, into scratch and copied in around it; when the ring is full, wait.
            let channels = max(1, open.format.channels)
            if ring.availableToWrite < Self.minimumReadFrames * channels {
                if !gate.mustStop { spaceReady.wait(for: Self.idle) }  // the sink, a park or quit posts
                continue
            }
            var cap = Int.max
            // Nothing fading, the next track looked at or no crossfade: straight to the read.
            if !(fade.isQuiet && (fade.lookedAhead || !fade.settings.isOn)) {
                switch fadeTurn(open, request: current.request, overNetwork: stream != nil) {
                case .read(let frames): cap = frames
                case .again: continue
                case .outgoingOver:
                    decoder = nil
                    track = nil
                    dataReady.post()  // a cut's fade out, short of a batch: to the device at once
                    continue
                case .pausePoint:
                    endCut()
                    if open is TailDecoder {
                        // A stream's fade out: nothing of it follows; play opens it again.
                        decoder = nil
                        track = nil
                        dataReady.post()
                        continue
                    }
                    // The track goes on from here when play comes, a segment of its own, fading in.
                    startSegment(open, trackID: current.id, request: current.request, gain: current.gain)
                    fade.resumed(open)
                    continue
                }
            }
            if let stream { tellRunsOut(stream, format: open.format) }
            let region = ring.writableRegion()
            let direct = region.count >= Self.minimumReadFrames * channels
            let room = direct ? region.count : min(capacity, ring.availableToWrite)
            let buffer = direct ? region.baseAddress! : scratch
            switch open.read(into: buffer, maxFrames: min(room / channels, cap)) {
            case .frames(let frames):
                let first = fade.position
                fade.position += Int64(frames)
                let outgoingOver = !fade.isQuiet && shape(buffer, frames: frames, from: first, channels: channels, of: open, gain: current.gain)
                if direct { published(frames * channels, stream: stream) } else { push(scratch, count: frames * channels, stream: stream) }
                if outgoingOver {
                    decoder = nil
                    track = nil
                    dataReady.post()  // a cut's fade out, short of a batch: to the device at once
                }
                // A file served in ranges has a size to go by; a stream read as a stream is told
                // the rate it really takes.
                if let stream, stream.head?.isSeekable != true,
                    let bps = bitrate.decoded(frames, rate: open.format.sampleRate, offset: stream.tell())
                {
                    stream.setBitrate(bps)
                }
            case .linkChanged:
                // Each link of a chained file is its own track (its tags, its times, its events),
                // except a live stream's link after a reconnection that goes on with the same song.
                let gain = open.metadata.replayGain.scale(replayGain)
                if stream?.takeReconnected() == true { resumed = true }
                let sameSong = resumed && trackTags.map { open.metadata.isSameSong(as: $0) } == true
                resumed = false
                let id = sameSong ? current.id : takeTrackID()
                // A live stream's time is the time listened: each link counts from its own start,
                // the same song after a reconnection too (the station may have started it again,
                // or played on while the stream was away: nothing in the stream says which).
                startSegment(open, trackID: id, request: current.request, gain: gain)
                track = (id, current.request, gain)
                trackTags = open.metadata
            case .hole(let error):
                if gate.mustStop { continue }
                // A live stream starts mid-stream (Icecast sends the headers, then the current
                // pages) and resumes mid-page after a reconnection: those gaps are expected.
                if let stream, stream.head?.isLive == true {
                    if stream.takeReconnected() { resumed = true }
                    continue
                }
                report(.decodeError(trackID: current.id, path: current.request.path, error: error, positionMicros: open.positionMicros, fatal: false))
            case .endOfStream:
                decoder = nil
                stream = nil
                track = nil
                blockingStream.withLock { $0 = nil }
            case .failed(let error):
                // Interrupted by a park or quit: the decoder is dropped, nothing failed.
                if gate.mustStop { continue }
                // A stream that gave up fails here too, its cause in the error (`DecoderError.network`).
                report(.decodeError(trackID: current.id, path: current.request.path, error: error, positionMicros: open.positionMicros, fatal: true))
                decoder = nil
                stream = nil
                track = nil
                blockingStream.withLock { $0 = nil }
            }
        }
        gate.markExited()
    }
}
