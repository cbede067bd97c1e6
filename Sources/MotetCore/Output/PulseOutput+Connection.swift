import CPulse
import Glibc
import MotetEvents
import MotetSystem

/// The context and stream lifecycle of `PulseOutput`: connecting, callbacks, losing the server and
/// reconnecting. Everything here runs with the main loop's lock held.
extension PulseOutput {
    /// Runs `body` with the main loop locked (directly when already on the loop's thread).
    func withLock(_ body: () -> Void) {
        if pa_threaded_mainloop_in_thread(mainloop) != 0 {
            body()
        } else {
            pa_threaded_mainloop_lock(mainloop)
            body()
            pa_threaded_mainloop_unlock(mainloop)
        }
    }

    /// Wakes the sink thread waiting in `wait`, `open` or `drain`.
    func signal() {
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    /// Waits (lock released while waiting) until `done` holds or `timeout` passes (a server that
    /// accepts the connection but never answers); false on timeout.
    func waitLocked(timeout: Duration, _ done: () -> Bool) -> Bool {
        deadlinePassed = false
        var tv = timeval()
        gettimeofday(&tv, nil)
        pa_timeval_add(&tv, pa_usec_t(timeout.microseconds))
        let api = pa_threaded_mainloop_get_api(mainloop)!
        let timer = api.pointee.time_new(
            api, &tv,
            { _, _, _, ud in
                let sink = PulseOutput.device(ud)
                sink.deadlinePassed = true
                sink.signal()
            }, userdata)
        defer { if let timer { api.pointee.time_free(timer) } }
        while !done() {
            if deadlinePassed { return false }
            pa_threaded_mainloop_wait(mainloop)
        }
        return true
    }

    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func device(_ userdata: UnsafeMutableRawPointer?) -> PulseOutput {
        Unmanaged<PulseOutput>.fromOpaque(userdata!).takeUnretainedValue()
    }

    /// Creates a context and starts connecting it; false when libpulse refuses at once.
    func connectContext() -> Bool {
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, "application.name", clientName)
        pa_proplist_sets(props, "application.id", "org.motet.Motet")
        pa_proplist_sets(props, "media.role", "music")
        pa_proplist_sets(props, "application.icon_name", Self.iconName)
        let api = pa_threaded_mainloop_get_api(mainloop)!
        guard let context = pa_context_new_with_proplist(api, clientName, props) else { return false }
        self.context = context
        pa_context_set_state_callback(context, { c, ud in PulseOutput.device(ud).contextStateChanged(c) }, userdata)
        return pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0
    }

    /// Creates the playback stream for `format` on the ready context and starts connecting it.
    func createStream() -> Bool {
        guard let context, let format, pa_context_get_state(context) == PA_CONTEXT_READY else { return false }
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
        var map = Self.channelMap(channels: format.channels)
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, "media.role", "music")
        describe(into: props)
        guard let stream = pa_stream_new_with_proplist(context, "Music", &spec, &map, props) else { return false }
        self.stream = stream
        streamWritten = 0
        cutState.staleEnd = nil
        corkedHeard = corked ? 0 : nil
        underrunHeard = nil
        drained = false
        timingStale = true
        timingPending = false
        pa_stream_set_state_callback(stream, { s, ud in PulseOutput.device(ud).streamStateChanged(s) }, userdata)
        pa_stream_set_write_callback(stream, { _, _, ud in PulseOutput.device(ud).serverAsked() }, userdata)
        pa_stream_set_event_callback(stream, { _, name, _, ud in PulseOutput.device(ud).streamEvent(name) }, userdata)
        // Playback (re)started after prebuffering: the moment the position needs fresh timing.
        pa_stream_set_started_callback(stream, { _, ud in PulseOutput.device(ud).requestTiming() }, userdata)
        pa_stream_set_underflow_callback(stream, { _, ud in PulseOutput.device(ud).ranDry() }, userdata)
        // A long buffer refilled in large requests, in PulseAudio's traditional mode (no
        // PA_STREAM_ADJUST_LATENCY: the sink may sleep for tlength - 2 × minreq), and no
        // automatic timing updates (`requestTiming` asks when the position needs it).
        var attr = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32(pa_usec_to_bytes(pa_usec_t(Self.buffer.microseconds), &spec)),
            prebuf: UInt32(pa_usec_to_bytes(pa_usec_t(Self.start.microseconds), &spec)),
            minreq: UInt32(pa_usec_to_bytes(pa_usec_t(Self.refill.microseconds), &spec)), fragsize: UInt32.max)
        // PA_STREAM_NOT_MONOTONIC: by default libpulse's clock never goes back, so one look at it
        // after a stop, before the underflow notice is read (`ranDry`), held it where the
        // interpolation had run to through the stop, ahead of all that was written, until real
        // time caught up: the heard position then moved only with each write (PulseOutputStopTests).
        // Without it, the next timing answer puts the clock back where the server is.
        var flags = PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_NOT_MONOTONIC.rawValue
        if corked { flags |= PA_STREAM_START_CORKED.rawValue }
        return pa_stream_connect_playback(stream, device, &attr, pa_stream_flags_t(rawValue: flags), nil, nil) >= 0
    }

    /// The PulseAudio channel map of WAV order: the positions of `WAVHeader.channelMask` for 1 to 8
    /// channels (PA_CHANNEL_MAP_WAVEEX alone would call Vorbis 7.1's side channels "front left/right
    /// of centre"), WAVEEX beyond.
    static func channelMap(channels: Int) -> pa_channel_map {
        let FL = PA_CHANNEL_POSITION_FRONT_LEFT, FR = PA_CHANNEL_POSITION_FRONT_RIGHT
        let FC = PA_CHANNEL_POSITION_FRONT_CENTER, LFE = PA_CHANNEL_POSITION_LFE
        let RL = PA_CHANNEL_POSITION_REAR_LEFT, RR = PA_CHANNEL_POSITION_REAR_RIGHT
        let RC = PA_CHANNEL_POSITION_REAR_CENTER
        let SL = PA_CHANNEL_POSITION_SIDE_LEFT, SR = PA_CHANNEL_POSITION_SIDE_RIGHT
        let positions: [pa_channel_position_t]
        switch channels {
        case 1: positions = [PA_CHANNEL_POSITION_MONO]
        case 2: positions = [FL, FR]
        case 3: positions = [FL, FR, FC]
        case 4: positions = [FL, FR, RL, RR]
        case 5: positions = [FL, FR, FC, RL, RR]
        case 6: positions = [FL, FR, FC, LFE, RL, RR]
        case 7: positions = [FL, FR, FC, LFE, RC, SL, SR]
        case 8: positions = [FL, FR, FC, LFE, RL, RR, SL, SR]
        default:
            var map = pa_channel_map()
            pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_WAVEEX)
            return map
        }
        var map = pa_channel_map()
        map.channels = UInt8(channels)
        withUnsafeMutableBytes(of: &map.map) { raw in
            let slots = raw.bindMemory(to: pa_channel_position_t.self)
            for (i, p) in positions.enumerated() { slots[i] = p }
        }
        return map
    }

    /// Disconnects and releases the stream, silencing its callbacks first.
    func dropStream() {
        guard let stream else { return }
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_write_callback(stream, nil, nil)
        pa_stream_set_event_callback(stream, nil, nil)
        pa_stream_set_started_callback(stream, nil, nil)
        if pa_stream_get_state(stream) == PA_STREAM_READY || pa_stream_get_state(stream) == PA_STREAM_CREATING {
            pa_stream_disconnect(stream)
        }
        pa_stream_unref(stream)
        self.stream = nil
    }

    /// Releases the stream and the context.
    func dropContext() {
        dropStream()
        guard let context else { return }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        self.context = nil
    }

    func contextStateChanged(_ c: OpaquePointer?) {
        defer { signal() }
        guard let c, c == context else { return }
        switch pa_context_get_state(c) {
        case PA_CONTEXT_READY:
            watchCalls(c)
            askServerKind(c)
            guard lost else { return }
            if format == nil {
                restored()
            } else if !createStream() {
                serverLost()
            }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            if everConnected, !closing { serverLost() }
        default:
            break
        }
    }

    func streamStateChanged(_ s: OpaquePointer?) {
        defer { signal() }
        guard let s, s == stream else { return }
        switch pa_stream_get_state(s) {
        case PA_STREAM_READY:
            sendDescription()
            if lost { restored() }
        case PA_STREAM_FAILED, PA_STREAM_TERMINATED:
            if everConnected, !closing { serverLost() }
        default:
            break
        }
    }

    func streamEvent(_ name: UnsafePointer<CChar>?) {
        guard let name else { return }
        if strcmp(name, "request-cork") == 0 {
            serverRequested(cork: true)
        } else if strcmp(name, "request-uncork") == 0 {
            serverRequested(cork: false)
        }
    }

    /// The server (or our stream on it) is gone: what the stream held unheard stays in the
    /// delay (it will never be heard), the owner is told once, and we try again in 500 ms.
    func serverLost() {
        if !lost {
            lost = true
            lostDelay += streamDelay
            streamDelay = 0
            streamWritten = 0
            corkedHeard = corked ? 0 : nil
            callWatch.forget()
            handler?(.lost)
        }
        scheduleReconnect()
        signal()
    }

    func restored() {
        lost = false
        handler?(.restored)
        resumeCallWatch()
    }

    func scheduleReconnect() {
        guard !closing else { return }
        var tv = timeval()
        gettimeofday(&tv, nil)
        pa_timeval_add(&tv, pa_usec_t(Self.reconnectDelay.microseconds))
        let api = pa_threaded_mainloop_get_api(mainloop).pointee
        if let reconnectTimer {
            api.time_restart(reconnectTimer, &tv)
        } else {
            reconnectTimer = api.time_new(
                pa_threaded_mainloop_get_api(mainloop), &tv, { _, _, _, ud in PulseOutput.device(ud).reconnect() }, userdata)
        }
    }

    /// Timer callback: throw away the dead context and dial again.
    func reconnect() {
        guard lost, !closing else { return }
        dropContext()
        if !connectContext() { scheduleReconnect() }
    }

    /// Asks the server for the stream's timing (unless an answer is pending); the answer wakes
    /// the sink thread, which then publishes the heard position from it.
    func requestTiming() {
        guard let stream, !lost, !timingPending, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
        guard let operation = pa_stream_update_timing_info(
            stream,
            { _, _, ud in
                let device = PulseOutput.device(ud)
                device.timingPending = false
                device.cutState.timingAnswers &+= 1
                device.timingAnswered()
                device.signal()
            }, userdata)
        else { return }
        pa_operation_unref(operation)
        timingPending = true
        timingStale = false
        timingAskedAt = .now()
    }

    /// The server ran out of audio (an underflow): everything written so far has been played.
    /// The interpolation from the last timing answer does not know, and runs on: after a stop
    /// (Ctrl-Z, `fg`) it had counted the whole stop as heard, so the new audio written after it
    /// counted as heard at once (the clock jumped, ran fast, then fell back at the next answer).
    /// The heard position stands where the server ran out until it plays again
    /// (`timingAnswered`; the started callback asks for timing). Where it ran out: what it had
    /// when the sink thread last looked, not `streamWritten` — after a stop the server's request
    /// for more is answered from the staging ring before its underflow notice is read.
    func ranDry() {
        underrunHeard = min(streamWritten, writtenWhenLooked)
        cutState.dry = true
        signal()
    }

    /// A timing answer came: one that shows the stream playing ends an underrun; while corked,
    /// what it says was heard stays so until uncorked.
    func timingAnswered() {
        guard let stream, let format else { return }
        if underrunHeard != nil, (pa_stream_get_timing_info(stream)?.pointee.playing ?? 0) != 0 { underrunHeard = nil }
        guard corked else { return }
        var latency: pa_usec_t = 0
        var negative: Int32 = 0
        if pa_stream_get_latency(stream, &latency, &negative) == 0 {
            let frames = Duration.microseconds(Int64(clamping: latency)).frames(rate: Int64(format.sampleRate))
            corkedHeard = streamWritten - (negative != 0 ? 0 : min(streamWritten, frames))
        }
    }

    /// Blocks until the server has played everything written (true; also when the device is
    /// closed), or until the stream is corked or `wakeup` is called (false). While the server is
    /// lost with audio unheard (in the lost stream or still staged), nothing was played out: it
    /// waits (for the owner, told `.restored`, to go back to what was heard, which wakes it), so
    /// that a track all written before the loss resumes instead of ending unheard.
    func drainLocked() -> Bool {
        while true {
            if corked { return false }
            if closed { return true }
            if woken {
                woken = false
                return false
            }
            if lost || lostDelay > 0 {
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { return true }
            // What waits in the staging ring goes first, as the server asks for it.
            sendPending()
            if pendingFrames == 0 { break }
            pa_threaded_mainloop_wait(mainloop)
        }
        if !dropStaleAudioLocked() { return false }
        guard let stream else { return true }
        guard let operation = pa_stream_drain(stream, { _, _, ud in PulseOutput.device(ud).signal() }, userdata) else {
            return true
        }
        defer { pa_operation_unref(operation) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING, !lost, !closed {
            if woken || corked {
                woken = false
                pa_operation_cancel(operation)
                return false
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        if lost && !closed { return drainLocked() }  // lost while draining: wait as above
        if pa_operation_get_state(operation) == PA_OPERATION_DONE {
            streamDelay = 0
            drained = true
        }
        return true
    }
}
