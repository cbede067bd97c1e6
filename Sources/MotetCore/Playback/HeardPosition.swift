import MotetEvents
import MotetOutput
import Synchronization
import MotetSystem

/// What has been heard of the sink's current epoch, as last published: `frames` heard at `at`,
/// advancing at `framesPerSecond` (0: standing still).
struct HeardNow: Sendable, Equatable {
    /// The sink worker's stream generation (bumped by each open and flush).
    var epoch: Int
    var frames: Int64
    /// 0 while standing still (paused, lost, nothing playing, untimed).
    var framesPerSecond: Int64
    var at: MonotonicInstant
    /// Frames written in this epoch when published: extrapolation never goes past it (a device
    /// that runs dry stops there).
    var limitFrames: Int64

    /// `frames` extrapolated to `now`, never past `limitFrames`.
    func frames(at now: MonotonicInstant = .now()) -> Int64 {
        guard framesPerSecond > 0, now > at else { return frames }
        let more = now.frames(since: at, rate: framesPerSecond)
        return max(frames, min(frames + more, limitFrames))
    }
}

/// The heard position, published by the sink thread (the only writer, or the control thread
/// while the sink thread is parked) and read by any thread without a lock: a sequence lock over
/// atomics. Readers retry while a publication is under way; the writer never waits.
final class HeardPosition: Sendable {
    private let sequence = Atomic<UInt64>(0)
    private let epoch = Atomic<Int>(0)
    private let frames = Atomic<Int64>(0)
    private let framesPerSecond = Atomic<Int64>(0)
    private let atNanos = Atomic<Int64>(0)
    private let limitFrames = Atomic<Int64>(0)

    /// Publishes a new snapshot. One writer at a time (see the type's comment).
    func publish(_ now: HeardNow) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        epoch.store(now.epoch, ordering: .relaxed)
        frames.store(now.frames, ordering: .relaxed)
        framesPerSecond.store(now.framesPerSecond, ordering: .relaxed)
        atNanos.store(now.at.nanoseconds, ordering: .relaxed)
        limitFrames.store(now.limitFrames, ordering: .relaxed)
        sequence.store(s &+ 2, ordering: .releasing)
    }

    /// The last snapshot. Any thread, lock-free.
    func load() -> HeardNow {
        while true {
            let before = sequence.load(ordering: .acquiring)
            if before & 1 != 0 { continue }
            let snapshot = HeardNow(
                epoch: epoch.load(ordering: .relaxed), frames: frames.load(ordering: .relaxed),
                framesPerSecond: framesPerSecond.load(ordering: .relaxed), at: MonotonicInstant(nanoseconds: atNanos.load(ordering: .relaxed)),
                limitFrames: limitFrames.load(ordering: .relaxed))
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == before { return snapshot }
        }
    }
}
