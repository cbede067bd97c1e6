#if canImport(Glibc)
import Glibc
#endif
import MotetDecoding
import MotetEvents
import MotetSystem

/// `--crossfade` and `--crossfade-albums`, as the decoder thread uses them.
struct CrossfadeSettings: Sendable, Equatable {
    /// How long two tracks overlap; zero: never.
    let length: Duration
    /// Crossfade between the tracks of one album played in order too.
    let acrossAlbums: Bool
    /// `length` is not zero (kept: the decoder asks on every read).
    let isOn: Bool

    init(length: Duration = .zero, acrossAlbums: Bool = false) {
        self.length = length
        self.acrossAlbums = acrossAlbums
        isOn = length > .zero
    }
}

/// The equal-power curve (README, "Crossfade"): over a fade of `n` frames, frame `t` of the
/// outgoing track is scaled by cos(π t / 2n) and frame `t` of the incoming one by sin(π t / 2n).
/// The two scales' squares add up to one, so the loudness holds through the fade.
enum FadeCurve {
    static func outgoing(_ t: Int64, of n: Int64) -> Float { Float(cos(Double.pi * Double(t) / Double(2 * max(1, n)))) }
    static func incoming(_ t: Int64, of n: Int64) -> Float { Float(sin(Double.pi * Double(t) / Double(2 * max(1, n)))) }
}

/// How one track gives way to the next, decided by the decoder thread when the outgoing track has
/// the crossfade's length left and the next track is open (`decide`).
enum CrossfadePlan: Equatable {
    /// One after the other, not a sample changed: crossfade is off for this pair (one album in
    /// order, a live stream, a length nobody can know).
    case gapless
    /// The last `frames` of the outgoing track and the first `frames` of the incoming one are
    /// mixed; the incoming track's segment starts in the middle (`frames / 2`).
    case crossfade(frames: Int64)
    /// Rate or channels differ: the outgoing track fades out over its last `out` frames, the
    /// device is reopened, the incoming one fades in over its first `in` frames (as mpd does).
    case fadeOutIn(out: Int64, in: Int64)

    /// What the decoder knows of each side of a pair.
    struct Side {
        var path: String
        var format: AudioFormat
        var metadata: TrackMetadata
        /// Every frame of the file; nil when nobody knows (a stream).
        var totalFrames: Int64?
        /// The next frame the decoder reads.
        var position: Int64
        /// More than one link (a chained file): each link is a track, the file's end is not
        /// one track's end.
        var isChained: Bool
        var isLive: Bool
    }

    /// The plan for `outgoing` followed by `incoming`. `inListOrder`: the incoming track is the
    /// one listed after the outgoing one (not shuffled there).
    static func decide(outgoing a: Side, incoming b: Side, inListOrder: Bool, settings: CrossfadeSettings) -> CrossfadePlan {
        guard settings.isOn, !a.isLive, !b.isLive, !a.isChained, !b.isChained,
            let totalA = a.totalFrames, let totalB = b.totalFrames, a.format.sampleRate > 0, b.format.sampleRate > 0
        else { return .gapless }
        if !settings.acrossAlbums, inListOrder,
            a.metadata.isSameAlbum(as: b.metadata, sameDirectory: FileSystem.directory(of: a.path) == FileSystem.directory(of: b.path))
        {
            return .gapless
        }
        let leftA = totalA - a.position
        let leftB = totalB - b.position
        if a.format == b.format {
            let frames = min(settings.length.frames(rate: Int64(a.format.sampleRate)), totalA / 2, totalB / 2, leftA, leftB)
            return frames > 1 ? .crossfade(frames: frames) : .gapless
        }
        // Different rates: the fade is the same time on both sides, each in its own frames.
        let shorter = min(Duration.frames(totalA, rate: a.format.sampleRate), .frames(totalB, rate: b.format.sampleRate))
        let length = min(settings.length, shorter / 2)
        let out = min(length.frames(rate: Int64(a.format.sampleRate)), leftA)
        let into = min(length.frames(rate: Int64(b.format.sampleRate)), leftB)
        return out > 1 || into > 1 ? .fadeOutIn(out: out, in: into) : .gapless
    }
}

/// Where a crossfade lies around the segment it brings in (`SegmentInfo.crossfade`): it starts
/// `before` frames ahead of the segment's first frame and ends `after` frames past it, both in
/// the output's rate (the two tracks share it). The outgoing track's last `after` frames play
/// under the incoming one: its `track-finished` counts them as heard.
struct CrossfadeSpan: Sendable, Equatable {
    var before: Int64
    var after: Int64
    var rate: Int

    /// The whole fade.
    var length: Duration { .frames(before + after, rate: rate) }
    /// The outgoing track's part after the incoming one's start.
    var outgoingTail: Duration { .frames(after, rate: rate) }
}

/// Where the output's sound stops when it is reset now (`SinkWorker.cutWhileParked`): a frame of
/// an epoch, as a `SegmentBoundary` is.
struct OutputCut: Sendable, Equatable {
    var epoch: Int
    var frame: Int64
    /// What was to play from there when it is a stream's (`SinkWorker.tailWhileParked`).
    var tail: AudioTail? = nil
}

/// What played at an `OutputCut`: a local file, where in it (from the file's start), and whose
/// track it was.
struct FadePlace: Sendable, Equatable {
    var path: String
    var orderPosition: Int
    var trackID: UInt64
    var position: Duration
    /// A track read over the network is not read again: its fade out is what the output kept.
    var tail: AudioTail? = nil
}

/// How a reposition leaves what was playing (README, "Crossfade"): never with a step.
enum CutFade: Sendable, Equatable {
    /// A de-click: 5 ms of it fade out, then what comes fades in over 5 ms (seek, skip, stop).
    case declick
    /// A de-click, then the pause (the sink stops at the pause point after the fade-out), and
    /// the same place fades in when play resumes.
    case declickThenPause
    /// A manual skip with `--crossfade`: it fades out over `length` while the next track fades in.
    case crossfade(Duration)

    /// A de-click's length.
    static let declickLength: Duration = .milliseconds(5)

    /// How much of what was playing is heard after the cut.
    var length: Duration {
        if case .crossfade(let length) = self { length } else { Self.declickLength }
    }
}

/// What the decoder plays of the old position before the new one (`DecodeCursor.cut`).
struct FadeFrom: Sendable, Equatable {
    var place: FadePlace
    var kind: CutFade
    /// The reposition's generation (the tail's segment, in a skip's crossfade, is of it).
    var generation: Int
}
