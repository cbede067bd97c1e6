import CAudioLibraries
import CPulse
import Glibc
import MotetEvents
import Synchronization

/// Plays through a PulseAudio server (or PipeWire's pipewire-pulse) with the asynchronous API.
///
/// A `pa_threaded_mainloop` thread runs libpulse; the sink thread waits on that loop's condition
/// while the server's buffer is full, so no thread polls. The stream has role `music`, S16LE
/// samples rounded as `ov_read` does, the WAVE-EX channel map and a ~200 ms latency target.
///
/// Interruptions: `request-cork` / `request-uncork` stream events become `.corkRequested` /
/// `.uncorkRequested`. When the server goes away, `.lost` is sent, writes return 0, and a timer
/// on the loop reconnects every 500 ms; once the stream is back, `.restored` is sent.
///
/// All mutable state is guarded by the main loop's lock (held implicitly inside callbacks).
public final class PulseSink: AudioSink, @unchecked Sendable {
    public let name = "pulse"
    let clientName: String
    let server: String?
    let device: String?
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var stream: OpaquePointer?
    var reconnectTimer: OpaquePointer?
    var format: AudioFormat?
    var frameBytes = 4
    /// Paused by `pause()`: the stream is (or will be created) corked.
    var corked = false
    /// The server is gone; the reconnect timer is running.
    var lost = false
    /// The context reached READY once: later failures are losses, not connection errors.
    var everConnected = false
    var closing = false
    var closed = false
    /// Frames written to the current PulseAudio stream since it was created or flushed.
    var streamWritten: Int64 = 0
    /// Frames heard in streams a lost server took away, since the last open or flush.
    var heardBefore: Int64 = 0
    let interrupted = Atomic<Bool>(false)
    let position = HeardPosition()
    let events = EventHandler()
    /// The latency target (tlength), in microseconds.
    static let latencyMicros: UInt64 = 200_000
    /// How long to wait for the server to answer a connection or a new stream, in microseconds.
    static let answerMicros: UInt64 = 5_000_000
    /// Set by the timer of `waitLocked(timeoutMicros:)`.
    var deadlinePassed = false
    /// The delay between reconnection attempts, in microseconds.
    static let reconnectMicros: UInt64 = 500_000

    /// Connects to the server (`server`, e.g. "unix:/run/user/1000/pulse/native", or the default
    /// one when nil) as `clientName`; streams go to sink `device` (the default sink when nil).
    /// Throws when no server answers within a few seconds.
    public init(clientName: String, server: String? = nil, device: String? = nil) throws(OutputError) {
        self.clientName = clientName
        self.server = server
        self.device = device
        guard motet_load_pulse() == 0 else {
            throw OutputError(
                "motet: cannot use PulseAudio: \(String(cString: motet_audio_library_error())); install libpulse0, or choose --output alsa, wav:PATH or null")
        }
        guard let loop = pa_threaded_mainloop_new() else { throw OutputError("motet: cannot create a PulseAudio main loop") }
        mainloop = loop
        pa_threaded_mainloop_set_name(loop, "motet-pulse")
        guard pa_threaded_mainloop_start(loop) >= 0 else {
            closed = true
            throw OutputError("motet: cannot start the PulseAudio main loop thread")
        }
        var failure: String?
        withLock {
            guard connectContext() else {
                failure = "cannot create a context"
                return
            }
            let answered = waitLocked(timeoutMicros: Self.answerMicros) {
                guard let context else { return true }
                let state = pa_context_get_state(context)
                return state == PA_CONTEXT_READY || state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
            }
            if let context, pa_context_get_state(context) == PA_CONTEXT_READY {
                everConnected = true
            } else if !answered {
                failure = "the server did not answer within \(Self.answerMicros / 1_000_000) s"
            } else {
                failure = context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "no context"
            }
        }
        if let failure {
            close()
            throw OutputError(
                "motet: cannot connect to the PulseAudio server\(server.map { " \($0)" } ?? ""): \(failure); start it, or choose --output alsa, wav:PATH or null"
            )
        }
    }

    deinit {
        close()
        pa_threaded_mainloop_free(mainloop)
    }

    public func open(_ format: AudioFormat) throws(OutputError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(clamping: format.sampleRate),
                                  channels: UInt8(clamping: format.channels))
        guard format.channels <= Int(PA_CHANNELS_MAX), format.channels > 0, pa_sample_spec_valid(&spec) != 0 else {
            throw OutputError("motet: PulseAudio cannot play \(format) (at most \(PA_CHANNELS_MAX) channels); choose --output wav:PATH")
        }
        var failure: String?
        withLock {
            guard !closed else {
                failure = "the output is closed"
                return
            }
            if format == self.format, stream != nil || lost { return }
            if stream != nil {
                drainLocked()
                dropStream()
            }
            self.format = format
            frameBytes = 2 * format.channels
            streamWritten = 0
            heardBefore = 0
            position.reset()
            if lost { return }  // the stream is created when the server is back
            guard createStream() else {
                failure = context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "no connection"
                return
            }
            let answered = waitLocked(timeoutMicros: Self.answerMicros) {
                guard let stream else { return true }
                let state = pa_stream_get_state(stream)
                return state != PA_STREAM_CREATING && state != PA_STREAM_UNCONNECTED
            }
            if let stream, pa_stream_get_state(stream) != PA_STREAM_READY, !lost {
                failure = answered
                    ? context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "stream failed"
                    : "the server did not answer within \(Self.answerMicros / 1_000_000) s"
                dropStream()
                self.format = nil
            }
        }
        if let failure { throw OutputError("motet: PulseAudio refused a \(format) stream: \(failure)") }
    }

    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        guard let source = frames.baseAddress else { return 0 }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let format else { return 0 }
        let channels = format.channels
        let total = frames.count / channels
        var done = 0
        while done < total {
            if interrupted.exchange(false, ordering: .acquiringAndReleasing) { break }
            guard !lost, !closed, let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { break }
            let writable = pa_stream_writable_size(stream)
            if writable < 0 { break }
            let room = writable / frameBytes
            if room == 0 {
                if corked { break }  // a corked stream takes nothing more until resumed
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            var bytes = min(room, total - done) * frameBytes
            var data: UnsafeMutableRawPointer?
            guard pa_stream_begin_write(stream, &data, &bytes) >= 0, let data else { break }
            let n = bytes / frameBytes
            if n == 0 {
                pa_stream_cancel_write(stream)
                break
            }
            SampleConversion.int16(
                from: source + done * channels, to: data.assumingMemoryBound(to: Int16.self), count: n * channels)
            guard pa_stream_write(stream, data, n * frameBytes, nil, 0, PA_SEEK_RELATIVE) >= 0 else { break }
            done += n
            streamWritten += Int64(n)
            position.addWritten(n)
        }
        updateHeardLocked()
        return done
    }

    public func interruptWrite() {
        interrupted.store(true, ordering: .releasing)
        withLock { signal() }
    }

    public func pause() {
        withLock {
            guard !corked else { return }
            corked = true
            if let stream, !lost { pa_operation_unref(pa_stream_cork(stream, 1, nil, nil)) }
            position.publish(heard: position.heard(), at: MonotonicClock.now(), advancingAt: 0)
            signal()
        }
    }

    public func resume() {
        interrupted.store(false, ordering: .releasing)
        withLock {
            guard corked else { return }
            corked = false
            if let stream, !lost { pa_operation_unref(pa_stream_cork(stream, 0, nil, nil)) }
            signal()
        }
    }

    public func flush() {
        interrupted.store(false, ordering: .releasing)
        withLock {
            if let stream, !lost { pa_operation_unref(pa_stream_flush(stream, nil, nil)) }
            streamWritten = 0
            heardBefore = 0
            position.reset()
        }
    }

    public func drain() {
        withLock { drainLocked() }
    }

    public func close() {
        var stop = false
        withLock {
            guard !closed else { return }
            closing = true
            if let reconnectTimer {
                pa_threaded_mainloop_get_api(mainloop).pointee.time_free(reconnectTimer)
                self.reconnectTimer = nil
            }
            dropContext()
            closed = true
            stop = true
            signal()  // a write or drain still waiting sees `closed` and returns
        }
        if stop { pa_threaded_mainloop_stop(mainloop) }
    }

    public var heardFrames: Int64 { position.heard() }

    public var onEvent: (@Sendable (SinkEvent) -> Void)? {
        get { events.handler }
        set { events.handler = newValue }
    }
}
