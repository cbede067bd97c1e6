import CAudioLibraries
import CPulse
import Glibc
import MotetEvents
import Synchronization
import MotetSystem

/// Plays through a PulseAudio server (or PipeWire's pipewire-pulse) with the asynchronous API.
///
/// A `pa_threaded_mainloop` thread runs libpulse; `wait` sleeps on that loop's condition, which
/// the server's write requests, state changes, a timer and `wakeup` signal, so no thread polls.
/// The stream has role `music`, S16LE samples rounded as `ov_read` does and the WAVE-EX channel map.
///
/// Power: the stream asks for a long buffer (`buffer`, 3 s) that the server refills in
/// large requests (at least `refill`, 0.5 s), so the server, its sink and we all sleep for
/// up to 2 s at a time (bench/wakeups.sh). Writes are converted into a staging ring (`+Staging`) that the main
/// loop's thread hands to the server when it asks: a refill then wakes that thread once (for the
/// server's request) and the sink thread once (to top the ring up), with no wake-up of the loop
/// for each write and no wait for its lock. The long buffer costs no responsiveness: pause corks the stream and
/// seek, skip and stop rewrite its queue (`+Cut`), and both act on the server at once. Timing is asked for only
/// when the position needs it (a new, flushed or uncorked stream, and every `timingRefresh`
/// with a write), not on libpulse's automatic timer.
///
/// Events: `request-cork` / `request-uncork` stream events, and other clients' phone or
/// communication streams coming and going (`+Calls`: PipeWire's default policy never corks us),
/// become `.corkRequested` / `.uncorkRequested`, one pair per call. When the server goes away,
/// `.lost` is sent, writes take nothing, and a timer on the loop reconnects every 500 ms; once the
/// stream is back, `.restored` is sent. All are sent from the main loop's thread.
///
/// All mutable state is guarded by the main loop's lock (held implicitly inside callbacks).
public final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// "pulse".
    public let name = "pulse"
    let clientName: String
    let server: String?
    let device: String?
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var stream: OpaquePointer?
    var reconnectTimer: OpaquePointer?
    /// Ends a `wait` that nothing else ends; made once, restarted by each `wait`.
    var waitTimer: OpaquePointer?
    var format: AudioFormat?
    var frameBytes = 4
    /// Samples converted to S16 and not yet handed to libpulse: a ring of `stagingFrames` frames
    /// (one buffer's worth, made by `open`). The frames `[pendingStart, pendingStart +
    /// pendingFrames)` (mod `stagingFrames`) are the main loop's to send; the rest is the sink
    /// thread's to fill, outside the lock (`+Staging`).
    var staging: UnsafeMutablePointer<Int16>?
    var stagingCapacity = 0
    var stagingFrames = 0
    var pendingStart = 0
    var pendingFrames = 0
    /// The sink thread is filling the ring up (see `stagingRoomWorthWriting`).
    var toppingUp = false
    /// Wakes the sink thread after libpulse has sent what a request took (`+Staging`).
    var signalEvent: OpaquePointer?
    /// Paused by `setPaused`: the stream is (or will be created) corked.
    var corked = false
    /// The server is gone; the reconnect timer is running.
    var lost = false
    /// The context reached READY once: later failures are losses, not connection errors.
    var everConnected = false
    var closing = false
    var closed = false
    /// `wakeup()` was called and no `wait` or `drain` has returned for it yet.
    var woken = false
    /// Frames written to the current PulseAudio stream since it was created or flushed.
    var streamWritten: Int64 = 0
    /// The current stream's delay when `state()` last measured it.
    var streamDelay: Int64 = 0
    /// Frames that lost streams took away unheard, since the last open or reset.
    var lostDelay: Int64 = 0
    /// A drain completed and nothing was written since: everything has been heard, whatever the
    /// interpolated latency says.
    var drained = false
    /// The event handler (`onEvent`), called on the main loop's thread.
    var handler: (@Sendable (OutputNotice) -> Void)?
    /// The buffer the server holds for us (tlength): long, so that everyone sleeps; cork and
    /// flush keep pause and seek fast.
    static let buffer: Duration = .seconds(3)
    /// How much must be free before the server asks for more (minreq). Without
    /// PA_STREAM_ADJUST_LATENCY the sink's own latency may grow to tlength - 2 × minreq = 2 s (as
    /// with PulseAudio's defaults, which mpd uses): a sink that sleeps as long as it may (the null
    /// sink; a card with timer-based scheduling) takes, and asks us for, 2 s at a time. A server
    /// that plays in small steps (PipeWire's pipewire-pulse, a pipe sink) asks every minreq: 0.5 s
    /// rather than 0.25 s halves those requests (bench/RESULTS.md).
    static let refill: Duration = .milliseconds(500)
    /// How much must be buffered before a new, flushed or underrun stream starts playing
    /// (prebuf): just over what the sink may take ahead of time (tlength - 2 × minreq = 2 s). With
    /// less, a sink that renders 2 s ahead (the null sink, timer-scheduled cards) underruns at once
    /// and every later write ends an underrun with a rewind: PulseAudio 16's null sink then counted
    /// 20 s of audio as played in 2 s (the player ended early; PulseOutputTests.nullSinkPlaysInRealTime).
    /// Writing 2.1 s from the ring takes milliseconds, so a seek is still heard at once.
    static let start: Duration = .milliseconds(2100)
    /// Timing information older than this is refreshed with the next write (drift between the
    /// sound card's clock and ours).
    static let timingRefresh: Duration = .seconds(30)
    /// A timing update was asked for and has not been answered.
    var timingPending = false
    /// The stream's timing must be asked for again (new, flushed or uncorked stream).
    var timingStale = true
    /// When timing was last asked for (nil: never).
    var timingAskedAt: MonotonicInstant?
    /// What had been heard of the stream when the server answered after the cork (nil: not
    /// corked, or no answer yet): while corked it cannot change, whatever the interpolation says.
    var corkedHeard: Int64?
    /// What had been heard of the stream when the server ran out (`ranDry`), until it plays again.
    var underrunHeard: Int64?
    /// `streamWritten` when `state()` last looked.
    var writtenWhenLooked: Int64 = 0
    /// When the armed `waitTimer` fires; nil when it is not armed.
    var waitTimerDue: MonotonicInstant?
    /// Calls, from the server's cork requests and from the sink inputs we see (`+Calls`).
    var callWatch: CallWatch
    /// The heard track, for the stream's properties (`+Description`).
    var describedTitle: String?
    var describedArtist: String?
    /// How long to wait for the server to answer a connection or a new stream.
    static let answerWait: Duration = .seconds(5)
    /// Where a cut rewrites the server's queue (`+Cut`).
    var cutState = CutState()
    /// Set by the timer of `waitLocked(timeout:)`.
    var deadlinePassed = false
    /// The delay between reconnection attempts.
    static let reconnectDelay: Duration = .milliseconds(500)

    /// Connects to the server (`server`, e.g. "unix:/run/user/1000/pulse/native", or the default
    /// one when nil) as `clientName`; streams go to sink `device` (the default sink when nil).
    /// `pauseForCalls` (`--pause-for-calls`): report calls as `.corkRequested` / `.uncorkRequested`
    /// (see `+Calls`); when false, calls are not reported at all, not even the server's requests.
    /// Throws when no server answers within a few seconds.
    public init(
        clientName: String, server: String? = nil, device: String? = nil, pauseForCalls: Bool = true
    ) throws(OutputError) {
        self.clientName = clientName
        self.server = server
        self.device = device
        callWatch = CallWatch(enabled: pauseForCalls)
        guard motet_load_pulse() == 0 else {
            throw .libraryMissing(.pulse, library: String(cString: motet_audio_library_error()))
        }
        guard let loop = pa_threaded_mainloop_new() else { throw .mainLoopFailed(starting: false) }
        mainloop = loop
        pa_threaded_mainloop_set_name(loop, "motet-pulse")
        guard pa_threaded_mainloop_start(loop) >= 0 else {
            closed = true
            throw .mainLoopFailed(starting: true)
        }
        var failure: String?
        withLock {
            guard connectContext() else {
                failure = "cannot create a context"
                return
            }
            let answered = waitLocked(timeout: Self.answerWait) {
                guard let context else { return true }
                let state = pa_context_get_state(context)
                return state == PA_CONTEXT_READY || state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
            }
            if let context, pa_context_get_state(context) == PA_CONTEXT_READY {
                everConnected = true
            } else if !answered {
                failure = "the server did not answer within \(Self.answerWait.components.seconds) s"
            } else {
                failure = context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "no context"
            }
        }
        if let failure {
            close()
            throw .serverUnreachable(server: server, why: failure)
        }
    }

    deinit {
        close()
        pa_threaded_mainloop_free(mainloop)
        staging?.deallocate()
    }

    /// Creates the stream for `format` (what the previous stream holds is played out first).
    public func open(_ format: AudioFormat) throws(OutputError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(clamping: format.sampleRate),
                                  channels: UInt8(clamping: format.channels))
        guard format.channels <= Int(PA_CHANNELS_MAX), format.channels > 0, pa_sample_spec_valid(&spec) != 0 else {
            throw .tooManyChannels(format, maximumChannels: Int(PA_CHANNELS_MAX))
        }
        var failure: OutputError?
        withLock {
            guard !closed else {
                failure = .closed(what: "the PulseAudio output")
                return
            }
            if format == self.format, stream != nil || lost { return }
            if stream != nil {
                _ = drainLocked()
                dropStream()
            }
            self.format = format
            frameBytes = 2 * format.channels
            let frames = Int(Self.buffer.frames(rate: Int64(format.sampleRate)))
            if frames * format.channels > stagingCapacity {
                staging?.deallocate()
                stagingCapacity = frames * format.channels
                staging = .allocate(capacity: stagingCapacity)
            }
            stagingFrames = frames
            pendingStart = 0
            pendingFrames = 0
            streamWritten = 0
            corkedHeard = corked ? 0 : nil
            underrunHeard = nil
            streamDelay = 0
            lostDelay = 0
            if lost { return }  // the stream is created when the server is back
            guard createStream() else {
                failure = .streamRefused(
                    format, why: context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "no connection")
                return
            }
            let answered = waitLocked(timeout: Self.answerWait) {
                guard let stream else { return true }
                let state = pa_stream_get_state(stream)
                return state != PA_STREAM_CREATING && state != PA_STREAM_UNCONNECTED
            }
            if let stream, pa_stream_get_state(stream) != PA_STREAM_READY, !lost {
                failure = .streamRefused(
                    format,
                    why: answered
                        ? context.map { String(cString: pa_strerror(pa_context_errno($0))) } ?? "stream failed"
                        : "the server did not answer within \(Self.answerWait.components.seconds) s")
                dropStream()
                self.format = nil
            }
        }
        if let failure { throw failure }
    }

    /// Free space in the staging ring (0 below `topUpFrames` while the server has all it asked
    /// for, so that the sink thread sleeps between refills), the delay from the stream's
    /// interpolated latency (never more than the stream was given) plus what waits in the ring
    /// and what lost streams took away.
    public func state() -> DeviceState {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let stream, let format, !lost, !closed, pa_stream_get_state(stream) == PA_STREAM_READY else {
            return DeviceState(
                freeFrames: 0, delayFrames: lostDelay + streamDelay + Int64(pendingFrames), playing: false, lost: lost)
        }
        var latency: pa_usec_t = 0
        var negative: Int32 = 0
        if drained {
            streamDelay = 0
        } else if corked, let corkedHeard {
            streamDelay = max(0, streamWritten - corkedHeard)  // nothing plays: the server's answer holds
        } else if let underrunHeard {
            streamDelay = max(0, streamWritten - underrunHeard)  // nothing plays until it has enough again
        } else if pa_stream_get_latency(stream, &latency, &negative) == 0 {
            let frames = Duration.microseconds(Int64(clamping: latency)).frames(rate: Int64(format.sampleRate))
            streamDelay = negative != 0 ? 0 : min(streamWritten, frames)
        } else {
            streamDelay = streamWritten  // no timing yet: nothing has been heard
        }
        writtenWhenLooked = streamWritten
        let playing = !corked && underrunHeard == nil && (pa_stream_get_timing_info(stream)?.pointee.playing ?? 0) != 0
        return DeviceState(
            freeFrames: corked ? 0 : stagingRoomWorthWriting(),
            delayFrames: lostDelay + streamDelay + Int64(pendingFrames), playing: playing && streamDelay > 0,
            stagedFrames: Int64(pendingFrames))
    }

    /// Sleeps on the main loop's condition until it is signalled (room, a state change, `wakeup`)
    /// or the timeout passes. The timer is only re-armed when this deadline is earlier than the
    /// armed one (re-arming wakes the main loop thread): a later armed deadline just ends this
    /// wait early, which the contract allows.
    public func wait(timeout: Duration) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        if woken || closed {
            woken = false
            return
        }
        let now = MonotonicInstant.now()
        let deadline = now + max(.zero, timeout)
        if waitTimerDue.map({ $0 <= now || $0 > deadline }) ?? true {
            var tv = timeval()
            gettimeofday(&tv, nil)
            pa_timeval_add(&tv, pa_usec_t(max(.zero, timeout).microseconds))
            let api = pa_threaded_mainloop_get_api(mainloop)!
            if let waitTimer {
                api.pointee.time_restart(waitTimer, &tv)
            } else {
                waitTimer = api.pointee.time_new(
                    api, &tv,
                    { _, _, _, ud in
                        let device = PulseOutput.device(ud)
                        device.waitTimerDue = nil
                        device.signal()
                    }, userdata)
            }
            waitTimerDue = deadline
        }
        pa_threaded_mainloop_wait(mainloop)
        woken = false
    }

    @discardableResult
    public func drain() -> Bool {
        var done = true
        withLock { done = drainLocked() }
        return done
    }

    /// Corks or uncorks the stream (a stream made while lost starts corked).
    public func setPaused(_ paused: Bool) {
        withLock {
            cutState.proposed = nil
            guard corked != paused else { return }
            corked = paused
            if let stream, !lost {
                pa_operation_unref(pa_stream_cork(stream, paused ? 1 : 0, nil, nil))
                // Where the server really stopped or went on: the interpolation alone drifts.
                corkedHeard = nil
                timingPending = false
                requestTiming()
            }
            signal()
        }
    }

    /// Disconnects from the server and stops the main loop thread.
    public func close() {
        var stop = false
        withLock {
            guard !closed else { return }
            closing = true
            let api = pa_threaded_mainloop_get_api(mainloop).pointee
            if let reconnectTimer {
                api.time_free(reconnectTimer)
                self.reconnectTimer = nil
            }
            if let waitTimer {
                api.time_free(waitTimer)
                self.waitTimer = nil
                waitTimerDue = nil
            }
            if let signalEvent {
                api.defer_free(signalEvent)
                self.signalEvent = nil
            }
            dropContext()
            closed = true
            stop = true
            signal()  // a wait or drain still running sees `closed` and returns
        }
        if stop { pa_threaded_mainloop_stop(mainloop) }
    }

    /// Signals the main loop's condition: a `wait` or `drain` returns at once.
    public func wakeup() {
        withLock {
            woken = true
            signal()
        }
    }

    /// Called on the main loop's thread with the loop's lock held.
    public var onEvent: (@Sendable (OutputNotice) -> Void)? {
        get {
            var h: (@Sendable (OutputNotice) -> Void)?
            withLock { h = handler }
            return h
        }
        set {
            withLock {
                handler = newValue
                // A call seen while connecting (before anyone listened) is reported now.
                if newValue != nil, !lost { resumeCallWatch() }
            }
        }
    }
}
