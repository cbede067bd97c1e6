import MotetEvents
import MotetSystem

/// The device clock of outputs that have none (`null`, `wav`): a buffer of `buffer` that
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
    static let defaultBuffer: Duration = .milliseconds(200)
    /// Free space reported when untimed: more than any write.
    static let untimedFree = 1 << 24

    let untimed: Bool
    /// How far ahead of what is heard writes may go.
    let buffer: Duration
    private(set) var rate = 44100
    /// `buffer` in frames at `rate`.
    private var capacity: Int64
    private var written: Int64 = 0
    /// Frame `anchorFrames` is heard at `anchor`; nil while the clock stands (nothing written
    /// since open or reset, or it ran dry).
    private var anchor: MonotonicInstant?
    private var anchorFrames: Int64 = 0
    /// What was heard when paused; nil while playing.
    private var pausedHeard: Int64?

    init(untimed: Bool, buffer: Duration = Self.defaultBuffer) {
        self.untimed = untimed
        self.buffer = buffer
        capacity = buffer.frames(rate: Int64(rate))
    }

    /// Starts a new stream at `rate`: nothing written, nothing heard (keeps a pause).
    mutating func start(rate: Int) {
        self.rate = max(1, rate)
        capacity = buffer.frames(rate: Int64(self.rate))
        reset()
    }

    /// Forgets what was written and not heard.
    mutating func reset() {
        written = 0
        anchor = nil
        anchorFrames = 0
        if pausedHeard != nil { pausedHeard = 0 }
    }

    /// Frames heard at `now`.
    func heard(at now: MonotonicInstant) -> Int64 {
        if untimed { return written }
        if let pausedHeard { return pausedHeard }
        guard let anchor else { return written }
        return min(anchorFrames + now.frames(since: anchor, rate: Int64(rate)), written)
    }

    /// Free space, delay and whether the clock runs, at `now`.
    func state(at now: MonotonicInstant) -> DeviceState {
        if untimed { return DeviceState(freeFrames: Self.untimedFree, delayFrames: 0, playing: false) }
        let delay = written - heard(at: now)
        return DeviceState(
            freeFrames: pausedHeard != nil ? 0 : Int(max(0, capacity - delay)), delayFrames: delay,
            playing: pausedHeard == nil && delay > 0)
    }

    /// Counts `frames` written at `now` (the caller took at most the free space).
    mutating func wrote(_ frames: Int, at now: MonotonicInstant) {
        if !untimed, pausedHeard == nil, anchor == nil || heard(at: now) >= written {
            anchor = now
            anchorFrames = written
        }
        written += Int64(frames)
    }

    /// Stops the clock (`true`) or starts it again where it stopped.
    mutating func setPaused(_ paused: Bool, at now: MonotonicInstant) {
        if paused, pausedHeard == nil {
            pausedHeard = heard(at: now)
        } else if !paused, let heard = pausedHeard {
            pausedHeard = nil
            if anchor != nil {
                anchor = now
                anchorFrames = heard
            }
        }
    }

    /// When half the buffer will be free (nil: it is already, or the clock stands).
    func roomDeadline(at now: MonotonicInstant) -> MonotonicInstant? {
        guard !untimed, pausedHeard == nil, let anchor else { return nil }
        let heardTarget = written - capacity / 2
        guard heardTarget > heard(at: now) else { return nil }
        return anchor.advanced(byNanoseconds: FrameTime.nanosecondsRounded(frames: heardTarget - anchorFrames, rate: rate))
    }

    /// When everything written will have been heard (nil: it has, or the clock stands).
    func drainDeadline(at now: MonotonicInstant) -> MonotonicInstant? {
        guard !untimed, pausedHeard == nil, let anchor, heard(at: now) < written else { return nil }
        return anchor.advanced(byNanoseconds: FrameTime.nanosecondsRounded(frames: written - anchorFrames, rate: rate))
    }
}

extension PacingClock {
    /// `AudioOutput.wait` for a clock-paced device: sleeps until half the buffer is free,
    /// `timeout` passes or `wakeup` is signalled.
    func wait(timeout: Duration, wakeup: WakeupPipe) {
        let now = MonotonicInstant.now()
        var deadline = now + max(.zero, timeout)
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
        guard let deadline = drainDeadline(at: .now()) else { return true }
        return !wakeup.sleep(until: deadline)
    }
}
