import MotetEvents
import Synchronization

/// How many frames have been written and heard, published by a sink's threads and read by anyone
/// without a lock.
///
/// Writers publish a snapshot "`frames` heard at time `nanos`, advancing at `rate` frames per
/// second (0: standing still)"; readers extrapolate it to now and cap it at what was written. The
/// snapshot is a sequence lock over atomics: readers never block, writers are serialised by a
/// private mutex held for a few stores.
final class HeardPosition: Sendable {
    private let sequence = Atomic<UInt64>(0)
    private let baseFrames = Atomic<Int64>(0)
    private let baseNanos = Atomic<Int64>(0)
    private let framesPerSecond = Atomic<Int64>(0)
    private let writtenFrames = Atomic<Int64>(0)
    /// The writers' copy of `sequence`: the lock that serialises writers holds it.
    private let writers = Locked<UInt64>(0)

    /// A rate meaning "everything written has been heard" (untimed outputs).
    static let heardAsWritten: Int64 = -1

    /// Frames written since the last reset.
    var written: Int64 { writtenFrames.load(ordering: .acquiring) }

    /// Counts `frames` more frames written.
    func addWritten(_ frames: Int) {
        writtenFrames.add(Int64(frames), ordering: .releasing)
    }

    /// Forgets everything: 0 written, 0 heard, standing still.
    func reset() {
        writtenFrames.store(0, ordering: .releasing)
        publish(heard: 0, at: MonotonicClock.now(), advancingAt: 0)
    }

    /// Sets the written count (e.g. when a lost server took the unheard frames with it).
    func setWritten(_ frames: Int64) {
        writtenFrames.store(frames, ordering: .releasing)
    }

    /// Publishes a new snapshot: `frames` heard at `nanos`, advancing at `rate` frames per second
    /// (0: standing still; `heardAsWritten`: whatever is written counts as heard).
    func publish(heard frames: Int64, at nanos: Int64, advancingAt rate: Int64) {
        writers.withLock { s in
            sequence.store(s &+ 1, ordering: .relaxed)
            atomicMemoryFence(ordering: .releasing)
            baseFrames.store(frames, ordering: .relaxed)
            baseNanos.store(nanos, ordering: .relaxed)
            framesPerSecond.store(rate, ordering: .relaxed)
            s &+= 2
            sequence.store(s, ordering: .releasing)
        }
    }

    /// Frames heard at `now`, extrapolated from the last snapshot, never above what was written.
    func heard(at now: Int64 = MonotonicClock.now()) -> Int64 {
        while true {
            let before = sequence.load(ordering: .acquiring)
            if before & 1 != 0 { continue }
            let frames = baseFrames.load(ordering: .relaxed)
            let nanos = baseNanos.load(ordering: .relaxed)
            let rate = framesPerSecond.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            guard sequence.load(ordering: .relaxed) == before else { continue }
            let written = self.written
            if rate == Self.heardAsWritten { return written }
            var heard = frames
            if rate > 0, now > nanos { heard += Int64(Double(now - nanos) * Double(rate) / 1_000_000_000) }
            return max(0, min(heard, written))
        }
    }
}
