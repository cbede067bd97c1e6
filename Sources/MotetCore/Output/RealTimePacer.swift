import MotetEvents
import Synchronization

/// Real-time pacing for outputs without a device clock (`null`, `wav`): frame `n` of the stream is
/// heard at `anchor + n / rate`, and a write sleeps (absolute deadlines, so no drift) until its
/// frames' time has come. Untimed, writes return at once and everything written counts as heard.
final class RealTimePacer: Sendable {
    private struct State {
        var rate = 44100
        /// When frame 0 is heard; nil until the first write after open, flush or resume.
        var anchor: Int64?
        var written: Int64 = 0
        var paused = false
        var heardAtPause: Int64 = 0
    }

    /// Longest sleep between checks for `interruptWrite` and `pause`.
    private static let sliceNanos: Int64 = 50_000_000

    let untimed: Bool
    let position = HeardPosition()
    private let state = Locked(State())
    private let interrupted = Atomic<Bool>(false)

    init(untimed: Bool) {
        self.untimed = untimed
    }

    /// Starts a new stream at `rate`: nothing written, nothing heard.
    func start(rate: Int) {
        state.withLock { s in
            s.rate = rate
            s.anchor = nil
            s.written = 0
        }
        position.reset()
        if untimed { position.publish(heard: 0, at: MonotonicClock.now(), advancingAt: HeardPosition.heardAsWritten) }
    }

    /// Accepts `frames` frames, handing each slice to `body` (which writes it somewhere) and
    /// sleeping until the slice has been "heard". Returns the frames accepted: fewer when
    /// interrupted or paused.
    func write(frames: Int, _ body: (_ offset: Int, _ count: Int) throws(OutputError) -> Void) throws(OutputError)
        -> Int
    {
        if untimed {
            if interrupted.exchange(false, ordering: .acquiringAndReleasing) { return 0 }
            try body(0, frames)
            position.addWritten(frames)
            return frames
        }
        var done = 0
        while done < frames {
            if interrupted.exchange(false, ordering: .acquiringAndReleasing) { break }
            let slice: (count: Int, deadline: Int64)? = state.withLock { s in
                if s.paused { return nil }
                let now = MonotonicClock.now()
                // Start the clock on the first write; after an underrun longer than a slice,
                // restart it (a device would too) instead of catching up in a burst.
                if s.anchor == nil || s.anchor! + MonotonicClock.nanos(frames: s.written, rate: s.rate)
                    < now - Self.sliceNanos
                {
                    s.anchor = now - MonotonicClock.nanos(frames: s.written, rate: s.rate)
                    position.publish(heard: s.written, at: now, advancingAt: Int64(s.rate))
                }
                let count = min(frames - done, max(1, s.rate / 20))
                s.written += Int64(count)
                return (count, s.anchor! + MonotonicClock.nanos(frames: s.written, rate: s.rate))
            }
            guard let slice else { break }
            try body(done, slice.count)
            position.addWritten(slice.count)
            MonotonicClock.sleep(until: slice.deadline)
            done += slice.count
        }
        return done
    }

    /// Makes a running `write` return within a slice (50 ms); sticky until a write sees it.
    func interrupt() {
        interrupted.store(true, ordering: .releasing)
    }

    /// Stops the clock.
    func pause() {
        state.withLock { s in
            guard !s.paused else { return }
            s.paused = true
            s.heardAtPause = position.heard()
            if !untimed { position.publish(heard: s.heardAtPause, at: MonotonicClock.now(), advancingAt: 0) }
        }
    }

    /// Restarts the clock where it stopped (and cancels a pending interruption).
    func resume() {
        interrupted.store(false, ordering: .releasing)
        state.withLock { s in
            guard s.paused else { return }
            s.paused = false
            if untimed { return }
            // What was written but not yet heard plays first: re-anchor on what was heard.
            let now = MonotonicClock.now()
            s.anchor = now - MonotonicClock.nanos(frames: s.heardAtPause, rate: s.rate)
            position.publish(heard: s.heardAtPause, at: now, advancingAt: s.written > s.heardAtPause ? Int64(s.rate) : 0)
        }
    }

    /// Forgets what was written (and a pending interruption); the next write starts the clock again.
    func flush() {
        interrupted.store(false, ordering: .releasing)
        state.withLock { s in
            s.anchor = nil
            s.written = 0
        }
        position.reset()
        if untimed { position.publish(heard: 0, at: MonotonicClock.now(), advancingAt: HeardPosition.heardAsWritten) }
    }

    /// Sleeps until everything written has been heard (at once when untimed or paused).
    func drain() {
        let deadline: Int64? = state.withLock { s in
            guard !untimed, !s.paused, let anchor = s.anchor else { return nil }
            return anchor + MonotonicClock.nanos(frames: s.written, rate: s.rate)
        }
        if let deadline { MonotonicClock.sleep(until: deadline) }
    }

    /// Frames heard so far.
    var heardFrames: Int64 { position.heard() }
}
