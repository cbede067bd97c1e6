import MotetEvents
import MotetSystem

/// The device clock of outputs that have none (`null`, `wav`): a buffer of `bufferNanos` that
/// plays out in real time, so free space follows the clock. Untimed, it is always free and
/// everything written counts as heard at once. `wait` sleeps until half the buffer is free: the
/// null output's 2 s buffer is refilled once a second (a pause or a reset acts on the clock at
/// once, so a long buffer costs nothing there).
///
/// Owned by one device and used on the sink thread only (a plain value: no locks). The clock
/// starts with the first write, and starts again (instead of catching up in a burst) after
/// running dry, as a device that underruns does.
struct PacingClock {
    /// How far ahead of what is heard writes may go, by default (`wav`: a file written close
    /// behind what is heard).
    static let defaultBufferNanos: Int64 = 200_000_000
    /// Free space reported when untimed: more than any write.
    static let untimedFree = 1 << 24

    let untimed: Bool
    /// How far ahead of what is heard writes may go.
    let bufferNanos: Int64
    private(set) var rate = 44100
    private var written: Int64 = 0
    /// Frame `anchorFrames` is heard at `anchorNanos`; nil while the clock stands (nothing
    /// written since open or reset, or it ran dry).
    private var anchorNanos: Int64?
    private var anchorFrames: Int64 = 0
    /// What was heard when paused; nil while playing.
    private var pausedHeard: Int64?

    init(untimed: Bool, bufferNanos: Int64 = Self.defaultBufferNanos) {
        self.untimed = untimed
        self.bufferNanos = bufferNanos
    }

    private var capacity: Int64 { Int64(rate) * bufferNanos / 1_000_000_000 }

    /// Starts a new stream at `rate`: nothing written, nothing heard (keeps a pause).
    mutating func start(rate: Int) {
        self.rate = max(1, rate)
        reset()
    }

    /// Forgets what was written and not heard.
    mutating func reset() {
        written = 0
        anchorNanos = nil
        anchorFrames = 0
        if pausedHeard != nil { pausedHeard = 0 }
    }

    /// Frames heard at `now`.
    func heard(at now: Int64) -> Int64 {
        if untimed { return written }
        if let pausedHeard { return pausedHeard }
        guard let anchorNanos else { return written }
        let played = anchorFrames + Int64(Double(now - anchorNanos) * Double(rate) / 1_000_000_000)
        return min(played, written)
    }

    /// Free space, delay and whether the clock runs, at `now`.
    func state(at now: Int64) -> DeviceState {
        if untimed { return DeviceState(freeFrames: Self.untimedFree, delayFrames: 0, playing: false) }
        let delay = written - heard(at: now)
        return DeviceState(
            freeFrames: pausedHeard != nil ? 0 : Int(max(0, capacity - delay)), delayFrames: delay,
            playing: pausedHeard == nil && delay > 0)
    }

    /// Counts `frames` written at `now` (the caller took at most the free space).
    mutating func wrote(_ frames: Int, at now: Int64) {
        if !untimed, pausedHeard == nil, anchorNanos == nil || heard(at: now) >= written {
            anchorNanos = now
            anchorFrames = written
        }
        written += Int64(frames)
    }

    /// Stops the clock (`true`) or starts it again where it stopped.
    mutating func setPaused(_ paused: Bool, at now: Int64) {
        if paused, pausedHeard == nil {
            pausedHeard = heard(at: now)
        } else if !paused, let heard = pausedHeard {
            pausedHeard = nil
            if anchorNanos != nil {
                anchorNanos = now
                anchorFrames = heard
            }
        }
    }

    /// When half the buffer will be free (nil: it is already, or the clock stands).
    func roomDeadline(at now: Int64) -> Int64? {
        guard !untimed, pausedHeard == nil, let anchorNanos else { return nil }
        let heardTarget = written - capacity / 2
        guard heardTarget > heard(at: now) else { return nil }
        return anchorNanos + FrameTime.nanosecondsRounded(frames: heardTarget - anchorFrames, rate: rate)
    }

    /// When everything written will have been heard (nil: it has, or the clock stands).
    func drainDeadline(at now: Int64) -> Int64? {
        guard !untimed, pausedHeard == nil, let anchorNanos, heard(at: now) < written else { return nil }
        return anchorNanos + FrameTime.nanosecondsRounded(frames: written - anchorFrames, rate: rate)
    }
}

extension PacingClock {
    /// `AudioOutput.wait` for a clock-paced device: sleeps until half the buffer is free,
    /// `timeoutNanos` pass or `wakeup` is signalled.
    func wait(timeoutNanos: Int64, wakeup: WakeupPipe) {
        let now = MonotonicClock.now()
        var deadline = now + max(0, timeoutNanos)
        if let room = roomDeadline(at: now) {
            deadline = min(deadline, room)
        } else if state(at: now).freeFrames > 0 {
            return
        }
        wakeup.sleep(until: deadline)
    }

    /// `AudioOutput.drain` for a clock-paced device: sleeps until everything written has been
    /// heard (true), or `wakeup` is signalled (false). At once when untimed or already heard
    /// (true) or paused (false).
    func drain(wakeup: WakeupPipe) -> Bool {
        if pausedHeard != nil { return false }
        guard let deadline = drainDeadline(at: MonotonicClock.now()) else { return true }
        return !wakeup.sleep(until: deadline)
    }
}
