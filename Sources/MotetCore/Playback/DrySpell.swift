import MotetOutput
import MotetSystem

/// The sink thread's watch on an empty ring: when the ring has stayed dry long enough, with the
/// device about to run out too, `.starving` is said (once), and samples flowing again end the
/// spell (`.fed`). A value the sink worker keeps and asks; it has no thread and no clock.
///
/// It runs on the sink thread each time the ring is found empty (some 30 times a second of audio
/// when decoding runs untimed), so its spans are integer nanoseconds: `Swift.Duration`'s 128-bit
/// arithmetic cost 370 instructions a look there, 0.07 % of an untimed decode (callgrind).
struct DrySpell: Equatable {
    /// How long the ring must stay dry, with the device holding less than this, before `.starving`.
    static let starvingAfterNanos: Int64 = 100_000_000
    /// When the ring last ran dry; nil while samples flow.
    private(set) var since: MonotonicInstant?
    /// `.starving` was said and `.fed` not yet.
    private(set) var starving = false

    /// The ring is empty at `now`, in front of a device in `state` playing `rate` frames a second.
    /// Returns how long to wait before looking again (nanoseconds), and when the spell began if
    /// `.starving` is to be said now. An empty ring in front of a device that holds more than
    /// `starvingAfterNanos` is no stall: the decoder of a live stream fills it a second at a time.
    mutating func ringEmpty(device state: DeviceState?, rate: Int, now: MonotonicInstant) -> (lookAgainInNanos: Int64, starvedSince: MonotonicInstant?) {
        let after = Self.starvingAfterNanos
        if !starving, let state, state.playing, !state.lost, rate > 0 {
            let enough = FrameTime.frames(nanoseconds: after, rate: rate)
            if state.delayFrames > enough {
                since = nil
                return (FrameTime.nanoseconds(frames: state.delayFrames - enough, rate: rate), nil)
            }
        }
        // Starving: look again soon, so that a slow source's trickle is played as it comes.
        if starving { return (after, nil) }
        guard let since else {
            self.since = now
            return (after, nil)
        }
        let dry = now.nanoseconds(since: since)
        if dry >= after {
            starving = true
            return (after, since)
        }
        return (after - dry, nil)
    }

    /// Samples are there: true when this ends a starving spell (`.fed` is to be said).
    mutating func flowing() -> Bool {
        since = nil
        defer { starving = false }
        return starving
    }

    /// A flush: whatever ran dry before it is forgotten (a spell already said stays said).
    mutating func flushed() { since = nil }
}
