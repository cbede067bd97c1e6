import MotetDecoding
import MotetEvents
import MotetNetwork
import MotetSystem

/// The decoder thread's side of a crossfade (README, "Crossfade"; docs/ARCHITECTURE.md, "Data
/// flow"): when the current track has the crossfade's length left, the next track is opened
/// ahead (`lookAhead`) and the pair's plan decided (`CrossfadePlan`). The last frames of the
/// outgoing track are then read as usual, straight into the ring, and the incoming track's into
/// `mixScratch`, mixed into them in place (`shape`) before they are published: the sink sees one
/// stream, and the mix costs nothing outside a fade.
struct FadeState {
    var settings: CrossfadeSettings
    /// The next frame the current track's decoder reads, counted exactly (a time in microseconds
    /// is not a frame).
    var position: Int64 = 0
    /// The next track was looked at for this one (opened, or found not to be crossfaded into).
    var lookedAhead = false
    /// The next track, open, and how the current one gives way to it.
    var handover: Handover? { didSet { refreshQuiet() } }
    /// Nothing is fading and no next track is open (`fadeIn`, `cut` and `handover` are nil): reads
    /// go straight through. Kept up to date by their `didSet`, read on every read.
    private(set) var isQuiet = true
    /// The next request, taken while looking ahead but not opened ahead (a URL, a playlist): the
    /// decoder takes it when the current track ends, as it would have.
    var heldRequest: TrackRequest?
    /// What is left of the current track's fade-in: frame `done` of `of`.
    var fadeIn: (done: Int64, of: Int64)? { didSet { refreshQuiet() } }
    /// The current decoder plays the tail of a cut (`FadeFrom`): it fades out over `frames` and
    /// ends at frame `end`; then the sink pauses, if `pauseAfter`.
    var cut: (end: Int64, frames: Int64, pauseAfter: Bool)? { didSet { refreshQuiet() } }
    /// The next track opened fades in over this (after a cut's de-click).
    var fadeInNext: Duration?

    /// The incoming track of a pair.
    struct Handover {
        var decoder: any AudioDecoder
        var request: TrackRequest
        var id: UInt64
        var gain: Float
        var plan: CrossfadePlan
        /// Its frame where it was opened (`--start`), and how many were read since.
        var start: Int64
        var read: Int64 = 0
        /// Its segment was started (the middle of the crossfade was reached).
        var announced = false
    }

    private mutating func refreshQuiet() { isQuiet = fadeIn == nil && cut == nil && handover == nil }

    /// The current track, read by `decoder`, fades in from its next frame over `span`.
    private mutating func fadeIn(over span: Duration, of decoder: any AudioDecoder) {
        fadeIn = (0, span.frames(rate: Int64(decoder.format.sampleRate)))
    }

    /// A reposition dropped the current track: nothing of a pair survives it.
    mutating func drop() {
        position = 0
        lookedAhead = false
        handover = nil
        heldRequest = nil
        fadeIn = nil
        cut = nil
        fadeInNext = nil
    }

    /// A reposition dropped the current track (`DecodeWorker`'s park): as `drop`, but a fade-in
    /// owed after a cut's fade out survives, for what the reposition opens (a pause out of a
    /// stream is resumed by one: `PlayerStateMachine.resumeStream`).
    mutating func repositioned() {
        let owed = fadeInNext
        drop()
        fadeInNext = owed
    }

    /// `decoder` was just opened as the current track, the ordinary way.
    mutating func opened(_ decoder: any AudioDecoder) {
        let pending = fadeInNext
        drop()
        position = DecodeWorker.frame(of: decoder)
        if let pending { fadeIn(over: pending, of: decoder) }
    }

    /// A pause's fade-out is over: the current track goes on after the pause, fading in.
    mutating func resumed(_ decoder: any AudioDecoder) {
        fadeInNext = nil
        fadeIn(over: CutFade.declickLength, of: decoder)
    }

    /// The current track is over: the pair's incoming track becomes current, with what is left
    /// of its fade-in.
    mutating func takeHandover() -> Handover? {
        guard let h = handover else { return nil }
        let pending = fadeInNext
        drop()
        position = h.start + h.read
        switch h.plan {
        case .gapless:
            if let pending { fadeIn(over: pending, of: h.decoder) }
        case .crossfade(let frames) where h.read < frames:
            fadeIn = (h.read, frames)  // the outgoing track ended early: finish the fade-in alone
        case .fadeOutIn(_, let into) where into > 1:
            fadeIn = (0, into)
        default:
            break
        }
        return h
    }
}

/// What the crossfade does with a turn of the decoder's loop (`DecodeWorker.fadeTurn`).
enum FadeTurn {
    /// Read at most this many frames of the current track.
    case read(Int)
    /// Something changed (the next track was looked at): look again.
    case again
    /// The outgoing track's last frame was mixed: close it, the incoming track goes on.
    case outgoingOver
    /// A pause's fade-out is over: the sink pauses here, and the same track goes on after it.
    case pausePoint
}

extension DecodeWorker {
    /// Any thread.
    /// The frame `decoder` reads next.
    static func frame(of decoder: any AudioDecoder) -> Int64 {
        FrameTime.framesSaturating(microseconds: decoder.positionMicros, rate: Int64(decoder.format.sampleRate))
    }

    /// Decoder thread.
    /// How much of the current track `a` to read now: never across the point where the next
    /// track is looked at, where a fade starts, or (in a crossfade) its middle, where the incoming
    /// track's segment starts. A track read over the network is not faded out at its end (a
    /// station has none to foresee; the look ahead would share its connection's bookkeeping).
    func fadeTurn(_ a: any AudioDecoder, request: TrackRequest, overNetwork: Bool) -> FadeTurn {
        ThreadRole.decoder.check()
        if let f = fade.fadeIn { return .read(Int(f.of - f.done)) }
        if fade.cut == nil {
            guard fade.settings.isOn, a.linkCount == 1, a.canSeek, !overNetwork, let total = a.totalFrames else { return .read(.max) }
            if fade.handover == nil {
                if fade.lookedAhead { return .read(.max) }
                let left = total - fade.position
                let length = fade.settings.length.frames(rate: Int64(a.format.sampleRate))
                if left > length { return .read(Int(clamping: left - length)) }
                lookAhead(a, request: request)
                return .again
            }
        }
        guard let w = outgoingWindow(a) else { return .read(.max) }
        let left = w.end - fade.position
        if left > w.frames { return .read(Int(clamping: left - w.frames)) }
        if left <= 0 { return fade.cut?.pauseAfter == true ? .pausePoint : .outgoingOver }
        guard w.mixes, let h = fade.handover else { return .read(Int(clamping: left)) }
        let done = w.frames - left
        let middle = w.frames / 2
        if !h.announced, done >= middle {
            startSegment(
                h.decoder, trackID: h.id, request: h.request, gain: h.gain,
                crossfade: CrossfadeSpan(before: middle, after: w.frames - middle, rate: a.format.sampleRate))
            fade.handover?.announced = true
        }
        var cap = done < middle ? middle - done : left
        cap = min(cap, Int64(Self.mixCapacity / max(1, h.decoder.format.channels)))
        return .read(Int(cap))
    }

    /// Decoder thread.
    /// Where the current track's fade-out ends (its last frame + 1), how long it is, and whether
    /// the next track is mixed into it; nil while none is decided.
    private func outgoingWindow(_ a: any AudioDecoder) -> (end: Int64, frames: Int64, mixes: Bool)? {
        var mixes = false
        if let h = fade.handover, case .crossfade = h.plan { mixes = true }
        if let c = fade.cut { return (c.end, c.frames, mixes) }
        guard let h = fade.handover, let total = a.totalFrames else { return nil }
        switch h.plan {
        case .gapless: return nil
        case .crossfade(let n): return (total, n, true)
        case .fadeOutIn(let out, _): return (total, out, false)
        }
    }

    /// Decoder thread.
    /// Applies the fade to `n` frames of the current track `a` just read into `buffer`, before
    /// they are published: the fade-in of a track that came in, the fade-out before a format
    /// change, or the crossfade (the incoming track's frames mixed in). True when that was the
    /// outgoing track's last frame. `gain`: the current track's ReplayGain scale (the sink applies
    /// the scale of the segment each frame belongs to; the mix is made for it).
    /// `first`: the frame the read started at (`fade.position` before the read; the caller has
    /// moved it on).
    func shape(
        _ buffer: UnsafeMutablePointer<Float>, frames n: Int, from first: Int64, channels: Int, of a: any AudioDecoder, gain: Float
    ) -> Bool {
        ThreadRole.decoder.check()
        guard n > 0 else { return false }
        if let (done, of) = fade.fadeIn {
            scale(buffer, frames: n, channels: channels) { FadeCurve.incoming(done + $0, of: of) }
            fade.fadeIn = done + Int64(n) >= of ? nil : (done + Int64(n), of)
            return false
        }
        guard let w = outgoingWindow(a) else { return false }
        let done = first - (w.end - w.frames)
        guard done >= 0 else { return false }
        if w.mixes, var h = fade.handover {
            readIncoming(&h, frames: n, channels: channels)
            // The sink scales each frame by its segment's gain: the incoming track's from the middle.
            let segmentGain = h.announced ? h.gain : gain
            let (outScale, inScale) = segmentGain > 0 ? (gain / segmentGain, h.gain / segmentGain) : (gain, h.gain)
            let b = mixScratch
            for f in 0..<n {
                let t = done + Int64(f)
                let o = FadeCurve.outgoing(t, of: w.frames) * outScale
                let i = FadeCurve.incoming(t, of: w.frames) * inScale
                let base = f * channels
                for c in 0..<channels { buffer[base + c] = buffer[base + c] * o + b[base + c] * i }
            }
            h.read += Int64(n)
            fade.handover = h
        } else {
            scale(buffer, frames: n, channels: channels) { FadeCurve.outgoing(done + $0, of: w.frames) }
        }
        return fade.position >= w.end && fade.cut?.pauseAfter != true
    }

    /// Decoder thread.
    /// Scales each frame `f` of `buffer` by `gain(f)`.
    private func scale(_ buffer: UnsafeMutablePointer<Float>, frames n: Int, channels: Int, _ gain: (Int64) -> Float) {
        for f in 0..<n {
            let g = gain(Int64(f))
            for c in 0..<channels { buffer[f * channels + c] *= g }
        }
    }

    /// Decoder thread.
    /// Reads `n` frames of the incoming track into `mixScratch`; what it cannot give (it ended,
    /// or failed: its own read says so when it becomes current) is silence.
    private func readIncoming(_ h: inout FadeState.Handover, frames n: Int, channels: Int) {
        var filled = 0
        var holes = 0
        while filled < n {
            switch h.decoder.read(into: mixScratch + filled * channels, maxFrames: n - filled) {
            case .frames(let got):
                filled += got
            case .hole where holes < 8:
                holes += 1
            default:
                (mixScratch + filled * channels).initialize(repeating: 0, count: (n - filled) * channels)
                filled = n
            }
        }
    }

    /// Decoder thread.
    /// The current track `a` has the crossfade's length left: takes the next request and, for a
    /// local file, opens it and decides the pair's plan. A URL or a playlist is held for when the
    /// current track ends (a live stream is never crossfaded into, and a connection is not held
    /// open early); a track that cannot be opened is said now, and the one after it is taken at
    /// the end as usual.
    /// `forced`: a manual skip's crossfade of this many frames, whatever the album.
    private func lookAhead(_ a: any AudioDecoder, request current: TrackRequest, forced: Int64? = nil) {
        ThreadRole.decoder.check()
        fade.lookedAhead = true
        guard case .track(let r) = nextTrack() else { return }
        guard !r.expand, !WebAddress.isRemote(r.path) else {
            fade.heldRequest = r
            return
        }
        do throws(DecoderError) {
            let d = try openFile(r.path)
            if passOver(r, d.metadata) { return }
            if r.start > .zero { try d.start(atMicros: r.start.microseconds) }
            func side(_ d: any AudioDecoder, frame: Int64) -> CrossfadePlan.Side {
                CrossfadePlan.Side(
                    path: d.path, format: d.format, metadata: d.metadata, totalFrames: d.totalFrames, position: frame,
                    isChained: d.linkCount > 1, isLive: false)
            }
            let start = Self.frame(of: d)
            var settings = fade.settings
            if let forced { settings = CrossfadeSettings(length: .frames(forced, rate: a.format.sampleRate), acrossAlbums: true) }
            let plan = CrossfadePlan.decide(
                outgoing: side(a, frame: fade.position), incoming: side(d, frame: start),
                inListOrder: follows(current.orderPosition, r.orderPosition), settings: settings)
            fade.handover = FadeState.Handover(
                decoder: d, request: r, id: r.reuseTrackID ?? takeTrackID(), gain: d.metadata.replayGain.scale(replayGain),
                plan: plan, start: start)
        } catch {
            if gate.mustStop { return }
            report(.openFailed(path: r.path, orderPosition: r.orderPosition, error: error, listedIn: r.origin.last))
        }
    }
}

extension DecodeWorker {
    /// Decoder thread.
    /// Opens what played where a reposition cut the output, from there, for its fade (`CutFade`):
    /// a de-click's 5 ms, pushed as samples of no segment, or a skip's crossfade, as the outgoing
    /// track's own segment with the next track opened at once and mixed in. A local file is read
    /// again from the cut; a stream's fade is what the output kept of it (`TailDecoder`), and no
    /// longer than that. Nil when it cannot be opened (it changed on disk): the cut is a cut.
    func openCut(_ cut: FadeFrom) -> (decoder: any AudioDecoder, request: TrackRequest, gain: Float)? {
        ThreadRole.decoder.check()
        let place = cut.place
        do throws(DecoderError) {
            let d: any AudioDecoder
            if let tail = place.tail, let origin = tail.origin {
                d = TailDecoder(tail, path: place.path, metadata: origin.metadata, at: place.position)
            } else {
                guard place.tail == nil, !WebAddress.isRemote(place.path) else { return nil }
                d = try openFile(place.path)
                try d.seek(toMicros: place.position.microseconds)
            }
            let gain = d.metadata.replayGain.scale(replayGain)
            let request = TrackRequest(
                orderPosition: place.orderPosition, path: place.path, start: place.position, reuseTrackID: place.trackID,
                generation: cut.generation)
            fade.drop()
            fade.position = Self.frame(of: d)
            fade.fadeInNext = CutFade.declickLength
            let rate = Int64(d.format.sampleRate)
            let declick = min(CutFade.declickLength.frames(rate: rate), (d.totalFrames ?? .max) - fade.position)
            if case .crossfade(let length) = cut.kind {
                startSegment(d, trackID: place.trackID, request: request, gain: gain)
                lookAhead(d, request: request, forced: length.frames(rate: rate))
                let frames: Int64 =
                    switch fade.handover?.plan {
                    case .crossfade(let n): n
                    case .fadeOutIn(let out, _): out
                    default: declick
                    }
                fade.cut = (fade.position + frames, frames, false)
            } else {
                pushMarker(SegmentMarker(sampleIndex: ring.writeIndex, segmentID: 0, sampleRate: d.format.sampleRate, channels: d.format.channels, gain: gain, isEnd: false))
                fade.cut = (fade.position + declick, declick, cut.kind == .declickThenPause)
            }
            return (d, request, gain)
        } catch {
            return nil
        }
    }

    /// Decoder thread.
    /// The tail of a cut has played: the sink pauses here if the cut was a pause.
    func endCut() {
        ThreadRole.decoder.check()
        guard let c = fade.cut else { return }
        fade.cut = nil
        if c.pauseAfter {
            pushMarker(SegmentMarker(sampleIndex: ring.writeIndex, segmentID: 0, sampleRate: 0, channels: 0, gain: 1, isEnd: false, pausePoint: true))
        }
    }
}
