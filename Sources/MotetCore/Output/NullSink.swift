import MotetEvents
import Synchronization

/// Plays to nowhere, in real time (absolute-deadline sleeps, so no drift) or, untimed, as fast as
/// the caller writes. For machines without sound, tests and benchmarks.
public final class NullSink: AudioSink {
    public let name = "null"
    private let pacer: RealTimePacer
    private let channels = Atomic<Int>(2)
    private let events = EventHandler()

    /// A null output; `untimed` makes writes return at once.
    public init(untimed: Bool) {
        pacer = RealTimePacer(untimed: untimed)
    }

    public func open(_ format: AudioFormat) throws(OutputError) {
        channels.store(max(1, format.channels), ordering: .relaxed)
        pacer.start(rate: format.sampleRate)
    }

    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        try pacer.write(frames: frames.count / channels.load(ordering: .relaxed)) { (_, _) throws(OutputError) in }
    }

    public func interruptWrite() { pacer.interrupt() }
    public func pause() { pacer.pause() }
    public func resume() { pacer.resume() }
    public func flush() { pacer.flush() }
    public func drain() { pacer.drain() }
    public func close() {}
    public var heardFrames: Int64 { pacer.heardFrames }

    /// Never called: nothing interrupts the null output.
    public var onEvent: (@Sendable (SinkEvent) -> Void)? {
        get { events.handler }
        set { events.handler = newValue }
    }
}
