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
    var handover: Handover?
    /// The next request, taken while looking ahead but not opened ahead (a URL, a playlist): the
    /// decoder takes it when the current track ends, as it would have.
    var heldRequest: TrackRequest?
    /// What is left of the current track's fade-in: frame `done` of `of`.
    var fadeIn: (done: Int64, of: Int64)?

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

    /// A reposition dropped the current track: nothing of a pair survives it.
    mutating func drop() {
        position = 0
        lookedAhead = false
        handover = nil
        heldRequest = nil
        fadeIn = nil
    }

    /// `decoder` was just opened as the current track, the ordinary way.
    mutating func opened(_ decoder: any AudioDecoder) {
        drop()
        position = DecodeWorker.frame(of: decoder)
    }

    /// The current track is over: the pair's incoming track becomes current, with what is left
    /// of its fade-in.
    mutating func takeHandover() -> Handover? {
        guard let h = handover else { return nil }
        drop()
        position = h.start + h.read
        switch h.plan {
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
        guard fade.settings.isOn else { return .read(.max) }
        if let f = fade.fadeIn { return .read(Int(f.of - f.done)) }
        guard a.linkCount == 1, a.canSeek, !overNetwork, let total = a.totalFrames else { return .read(.max) }
        let left = total - fade.position
        guard let h = fade.handover else {
            if fade.lookedAhead { return .read(.max) }
            let length = fade.settings.length.frames(rate: Int64(a.format.sampleRate))
            if left > length { return .read(Int(clamping: left - length)) }
            lookAhead(a, request: request)
            return .again
        }
        let frames: Int64
        switch h.plan {
        case .gapless: return .read(.max)
        case .crossfade(let n): frames = n
        case .fadeOutIn(let out, _): frames = out
        }
        if left > frames { return .read(Int(clamping: left - frames)) }
        if left <= 0 { return .outgoingOver }
        guard case .crossfade = h.plan else { return .read(Int(clamping: left)) }
        let done = frames - left
        let middle = frames / 2
        if !h.announced, done >= middle {
            startSegment(
                h.decoder, trackID: h.id, request: h.request, gain: h.gain,
                crossfade: CrossfadeSpan(before: middle, after: frames - middle, rate: a.format.sampleRate))
            fade.handover?.announced = true
        }
        var cap = done < middle ? middle - done : left
        cap = min(cap, Int64(Self.mixCapacity / max(1, h.decoder.format.channels)))
        return .read(Int(cap))
    }

    /// Decoder thread.
    /// Applies the fade to `n` frames of the current track `a` just read into `buffer`, before
    /// they are published: the fade-in of a track that came in, the fade-out before a format
    /// change, or the crossfade (the incoming track's frames mixed in). True when that was the
    /// outgoing track's last frame. `gain`: the current track's ReplayGain scale (the sink applies
    /// the scale of the segment each frame belongs to; the mix is made for it).
    func shape(_ buffer: UnsafeMutablePointer<Float>, frames n: Int, channels: Int, of a: any AudioDecoder, gain: Float) -> Bool {
        ThreadRole.decoder.check()
        guard fade.settings.isOn, n > 0 else { return false }
        let first = fade.position
        fade.position += Int64(n)
        if let (done, of) = fade.fadeIn {
            scale(buffer, frames: n, channels: channels) { FadeCurve.incoming(done + $0, of: of) }
            fade.fadeIn = done + Int64(n) >= of ? nil : (done + Int64(n), of)
            return false
        }
        guard var h = fade.handover, let total = a.totalFrames else { return false }
        switch h.plan {
        case .gapless:
            return false
        case .fadeOutIn(let out, _):
            let done = first - (total - out)
            guard done >= 0 else { return false }
            scale(buffer, frames: n, channels: channels) { FadeCurve.outgoing(done + $0, of: out) }
        case .crossfade(let frames):
            let done = first - (total - frames)
            guard done >= 0 else { return false }
            readIncoming(&h, frames: n, channels: channels)
            // The sink scales each frame by its segment's gain: the incoming track's from the middle.
            let segmentGain = h.announced ? h.gain : gain
            let (outScale, inScale) = segmentGain > 0 ? (gain / segmentGain, h.gain / segmentGain) : (gain, h.gain)
            let b = mixScratch
            for f in 0..<n {
                let t = done + Int64(f)
                let o = FadeCurve.outgoing(t, of: frames) * outScale
                let i = FadeCurve.incoming(t, of: frames) * inScale
                let base = f * channels
                for c in 0..<channels { buffer[base + c] = buffer[base + c] * o + b[base + c] * i }
            }
            h.read += Int64(n)
            fade.handover = h
        }
        return fade.position >= total
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
    private func lookAhead(_ a: any AudioDecoder, request current: TrackRequest) {
        ThreadRole.decoder.check()
        fade.lookedAhead = true
        guard case .track(let r) = nextTrack() else { return }
        guard !r.expand, !WebAddress.isRemote(r.path) else {
            fade.heldRequest = r
            return
        }
        do throws(DecoderError) {
            let d = try OggDecoding.open(path: r.path)
            if passOver(r, d.metadata) { return }
            if r.start > .zero { try d.start(atMicros: r.start.microseconds) }
            func side(_ d: any AudioDecoder, frame: Int64) -> CrossfadePlan.Side {
                CrossfadePlan.Side(
                    path: d.path, format: d.format, metadata: d.metadata, totalFrames: d.totalFrames, position: frame,
                    isChained: d.linkCount > 1, isLive: false)
            }
            let start = Self.frame(of: d)
            let plan = CrossfadePlan.decide(
                outgoing: side(a, frame: fade.position), incoming: side(d, frame: start),
                inListOrder: follows(current.orderPosition, r.orderPosition), settings: fade.settings)
            fade.handover = FadeState.Handover(
                decoder: d, request: r, id: r.reuseTrackID ?? takeTrackID(), gain: d.metadata.replayGain.scale(replayGain),
                plan: plan, start: start)
        } catch {
            if gate.mustStop { return }
            report(.openFailed(path: r.path, orderPosition: r.orderPosition, error: error, listedIn: r.origin.last))
        }
    }
}
