import MotetEvents
import MotetSystem

/// Plays to nowhere, paced by a `PacingClock` (real time) or, untimed, as fast as the worker
/// writes. For machines without sound, tests and benchmarks. It sends no events. Its 2 s clock
/// buffer lets the sink thread sleep a second at a time.
public final class NullOutput: AudioOutput, @unchecked Sendable {
    // `clock` and `channels` are touched on the sink thread only; `wakeups` is thread-safe.
    /// "null".
    public let name = "null"
    private var clock: PacingClock
    private var channels = 2
    private let wakeups = WakeupPipe()
    /// The clock's buffer: nothing is really buffered, so pause and seek stay instant.
    static let buffer: Duration = .seconds(2)

    /// A null output; `untimed` makes it take everything at once.
    public init(untimed: Bool) {
        clock = PacingClock(untimed: untimed, buffer: Self.buffer)
    }

    /// Starts the clock again at the format's rate.
    public func open(_ format: AudioFormat) throws(OutputError) {
        channels = max(1, format.channels)
        clock.start(rate: format.sampleRate)
    }

    /// Takes what the clock has room for and plays it to nowhere.
    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        let now = MonotonicInstant.now()
        let n = min(frames.count / channels, clock.state(at: now).freeFrames)
        clock.wrote(n, at: now)
        return n
    }

    /// The clock's free space and delay.
    public func state() -> DeviceState { clock.state(at: MonotonicInstant.now()) }
    /// Sleeps until the clock frees half its buffer.
    public func wait(timeout: Duration) { clock.wait(timeout: timeout, wakeup: wakeups) }
    @discardableResult
    public func drain() -> Bool { clock.drain(wakeup: wakeups) }
    /// Forgets what the clock holds.
    public func reset() {
        clock.reset()
        _ = wakeups.take()
    }
    /// Stops or restarts the clock.
    public func setPaused(_ paused: Bool) { clock.setPaused(paused, at: MonotonicInstant.now()) }
    /// Nothing to release.
    public func close() {}
    /// Ends a `wait` or `drain` at once.
    public func wakeup() { wakeups.signal() }

    /// Never called: nothing happens to the null output.
    public var onEvent: (@Sendable (OutputNotice) -> Void)?
}
