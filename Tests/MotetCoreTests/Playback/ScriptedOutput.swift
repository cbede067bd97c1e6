import MotetEvents
import MotetOutput
import Synchronization
import MotetSystem

/// An `AudioOutput` whose free space, delay and events the test decides, and which records what
/// the sink worker did to it.
final class ScriptedOutput: AudioOutput, Sendable {
    /// What the worker called, in order.
    enum Call: Equatable, Sendable {
        case open(AudioFormat)
        case write(frames: Int)
        case setPaused(Bool)
        case drain, reset, close
    }

    private struct State {
        var calls: [Call] = []
        /// Frames the device will still take (the test adds more).
        var budget = 0
        /// Reported as the delay (clamped to what was written).
        var delay: Int64 = 0
        var written: Int64 = 0
        var paused = false
        var woken = false
        var handler: (@Sendable (OutputNotice) -> Void)?
    }

    private let box = Mutex(State())
    let name = "scripted"

    var calls: [Call] { box.withLock { $0.calls } }
    var written: Int64 { box.withLock { $0.written } }
    var isPaused: Bool { box.withLock { $0.paused } }

    /// Lets the device take `frames` more.
    func allow(_ frames: Int) { box.withLock { $0.budget += frames } }
    /// What `state()` reports as the delay from now on.
    func setDelay(_ frames: Int64) { box.withLock { $0.delay = frames } }
    /// Sends `event` through the handler, as a device's own thread would.
    func send(_ event: OutputNotice) { box.withLock { $0.handler }?(event) }

    func open(_ format: AudioFormat) throws(OutputError) { box.withLock { $0.calls.append(.open(format)) } }

    func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        box.withLock { s in
            guard !s.paused else { return 0 }
            let n = min(s.budget, frames.count / 2)
            s.budget -= n
            s.written += Int64(n)
            if n > 0 { s.calls.append(.write(frames: n)) }
            return n
        }
    }

    func state() -> DeviceState {
        box.withLock { s in
            DeviceState(
                freeFrames: s.paused ? 0 : s.budget, delayFrames: min(s.delay, s.written), playing: !s.paused && min(s.delay, s.written) > 0)
        }
    }

    func wait(timeout: Duration) {
        // At most 5 ms, a millisecond at a time.
        for _ in 0..<max(1, min(timeout, .milliseconds(5)).milliseconds) {
            if box.withLock({ s in
                defer { s.woken = false }
                return s.woken || s.budget > 0
            }) { return }
            (MonotonicInstant.now() + .milliseconds(1)).sleepUntil()
        }
    }

    func drain() -> Bool {
        box.withLock { s in
            s.calls.append(.drain)
            s.delay = 0
            return !s.paused
        }
    }

    func reset() { box.withLock { $0.calls.append(.reset) } }
    func setPaused(_ paused: Bool) {
        box.withLock { s in
            s.paused = paused
            s.calls.append(.setPaused(paused))
        }
    }
    func close() { box.withLock { $0.calls.append(.close) } }
    func wakeup() { box.withLock { $0.woken = true } }

    var onEvent: (@Sendable (OutputNotice) -> Void)? {
        get { box.withLock { $0.handler } }
        set { box.withLock { $0.handler = newValue } }
    }
}
