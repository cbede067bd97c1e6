import CAudioLibraries
import CALSA
import Glibc
import MotetEvents
import MotetSystem

/// Plays through an ALSA PCM ("default" or a named device): interleaved S16, a buffer of up to 2 s
/// (what the device allows, ALSAOutput+Setup.swift) refilled when 1.5 s of it are free, recovery
/// from underruns and suspend. The long buffer costs no responsiveness: pause is `snd_pcm_pause`
/// (or a drop that keeps what was dropped), a seek, skip, stop or pause with a de-click rewinds
/// the buffer to 40 ms ahead of what plays (`cut`, ALSAOutput+Cut.swift: sample-exact, the fade
/// out overwrites the rest) or, on a device that cannot rewind, drops it (`reset`), and a prepared
/// device starts after 100 ms are written.
///
/// The PCM is non-blocking; `wait` sleeps in one `poll` on the PCM's descriptors (the software
/// `avail_min` is the refill size, so a sound card wakes it once per refill) and the wake-up pipe,
/// so `wakeup` is seen at once. Channels beyond stereo are
/// reordered from WAV order to ALSA's default (FL FR RL RR FC LFE SL SR).
///
/// Recovery (tested against a fault-injecting ioplug device, Tests/ALSAFault):
/// - An underrun (-EPIPE) or a suspend (-ESTRPIPE) goes through `snd_pcm_recover` and sends
///   `.glitch`. A device left suspended by it (an ioplug device without a resume callback:
///   alsa-lib's `snd_pcm_resume` then returns 0 and changes nothing) is prepared. When the
///   recovery prepared the device, the frames it held unplayed are written again from a copy of
///   the last buffer's worth of output, so no frame of the music is lost or repeated: a fault
///   costs a gap of silence, not samples. A pause on a device that cannot pause does the same.
/// - Any other error (the device is gone: -ENODEV, -EBADFD...) sends `.lost` once; the device
///   then takes nothing and `wait` tries to reopen it once a second; when that works, `.restored`
///   is sent and writes wait (at most a second) for the owner's `reset` back to the heard
///   position.
public final class ALSAOutput: AudioOutput, @unchecked Sendable {
    // Everything is used on the sink thread only, except `wakeups` (thread-safe) and `onEvent`
    // (set before the sink thread starts).
    /// "alsa".
    public let name = "alsa"
    let device: String
    var pcm: OpaquePointer?
    var format: AudioFormat?
    var periodFrames = 1024
    var deviceBufferFrames = 0
    /// Free frames worth a refill while the device runs (its `avail_min`); below that, `state`
    /// says 0 and `wait` sleeps on.
    var refillFrames = 1024
    var buffer: UnsafeMutablePointer<Int16>?
    var bufferFrames = 0
    var order: UnsafeMutablePointer<Int>?
    /// The last `historyFrames` frames written, as the device got them (ring), for re-sending what
    /// a recovery dropped.
    var history: UnsafeMutablePointer<Int16>?
    var historyFrames = 0
    /// Frames appended to `history` since the last open or reset.
    var historyEnd = 0
    /// The device failed beyond recovery; `wait` retries opening it.
    var lost = false
    /// When the device was last lost or tried again (nil: never).
    var lastReopenAttempt: MonotonicInstant?
    /// After `.restored`: writes take nothing until this time or a `reset`, so that the owner can
    /// go back to what was heard before anything newer reaches the new device.
    var holdUntil: MonotonicInstant?
    var paused = false
    /// Frames a pause dropped unplayed (the device could not pause): written again on resume.
    var droppedForPause: Int?
    /// The device's delay when last measured, plus what was written since (a device lost right
    /// after a write took those frames unheard); kept while it is lost.
    var lastDelay: Int64 = 0
    /// When `lastDelay` was measured and whether the device was playing then: a device that
    /// disappears can no longer say its delay, so it is worked out from these.
    var lastDelayAt = MonotonicInstant(nanoseconds: 0)
    var lastDelayRunning = false
    /// Frames that lost devices took away unheard, since the last open or reset.
    var lostDelay: Int64 = 0
    /// A cut offered to the next `reset`, and a play-out under way (ALSAOutput+Cut.swift).
    var cutState = CutState()
    /// Software parameters to change the silence fill with (`silencePastWritten`).
    var silenceParams: OpaquePointer?
    let wakeups = WakeupPipe()
    /// `poll` descriptors: the PCM's, then the wake-up pipe's (sized when the PCM is set up).
    var pollDescriptors: UnsafeMutablePointer<pollfd>?
    var pcmDescriptorCount = 0
    /// How often a lost device is tried again.
    static let reopenInterval: Duration = .seconds(1)

    /// `.glitch` after a recovery, `.lost` when the device fails beyond recovery, `.restored` when
    /// it could be reopened; all sent from the sink thread.
    public var onEvent: (@Sendable (OutputNotice) -> Void)?

    /// Opens `device` ("default" when nil) now, so that a machine without a card fails early.
    public init(device: String?) throws(OutputError) {
        self.device = device ?? "default"
        guard motet_load_alsa() == 0 else {
            throw .libraryMissing(.alsa, library: String(cString: motet_audio_library_error()))
        }
        var handle: OpaquePointer?
        let rc = Self.quietly { snd_pcm_open(&handle, self.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) }
        guard rc >= 0, let handle else { throw .deviceUnavailable(device: self.device, why: Self.text(rc)) }
        pcm = handle
    }

    deinit { close() }

    /// Sets the device up for `format` (what it holds is played out first).
    public func open(_ format: AudioFormat) throws(OutputError) {
        guard let pcm else { throw .closed(what: "the ALSA output \(device)") }
        if self.format == format { return }
        if self.format != nil { _ = drain() }
        let rc = configure(pcm, for: format)
        guard rc >= 0 else { throw .formatRefused(device: device, format, why: Self.text(rc)) }
        self.format = format
        order?.deallocate()
        let map = Self.alsaOrder(channels: format.channels)
        order = .allocate(capacity: format.channels)
        for c in 0..<format.channels { order![c] = map[c] }
        droppedForPause = nil
        historyEnd = 0
        lastDelay = 0
        lostDelay = 0
    }

    /// Sets `handle` up for `format` and sizes the conversion and history buffers for its period
    /// and buffer. Returns alsa-lib's status.
    func configure(_ handle: OpaquePointer, for format: AudioFormat) -> Int32 {
        let (rc, setup) = Self.quietly { Self.setUp(handle, for: format) }
        guard rc >= 0, let setup else { return rc }
        periodFrames = setup.periodFrames
        deviceBufferFrames = setup.bufferFrames
        refillFrames = setup.refillFrames
        let frames = max(periodFrames, 1024)
        if buffer == nil || frames != bufferFrames || format.channels != self.format?.channels {
            buffer?.deallocate()
            bufferFrames = frames
            buffer = .allocate(capacity: bufferFrames * format.channels)
        }
        let count = Int(max(0, snd_pcm_poll_descriptors_count(handle)))
        if pollDescriptors == nil || count != pcmDescriptorCount {
            pollDescriptors?.deallocate()
            pcmDescriptorCount = count
            pollDescriptors = .allocate(capacity: count + 1)
        }
        let keep = max(deviceBufferFrames, bufferFrames)
        if history == nil || keep != historyFrames || format.channels != self.format?.channels {
            history?.deallocate()
            historyFrames = keep
            history = .allocate(capacity: historyFrames * format.channels)
            historyEnd = 0
        }
        // For `silencePastWritten`, which runs on the sink thread after a cut: allocated here.
        if silenceParams == nil { snd_pcm_sw_params_malloc(&silenceParams) }
        return rc
    }

    /// Converts to S16 in ALSA channel order and writes what the device has room for, recovering
    /// from an underrun or a suspend on the way.
    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        cutState.proposed = nil
        guard !lost, !paused, !isHeld else { return 0 }
        guard let pcm, let format, let buffer, let order, let base = frames.baseAddress else { return 0 }
        silencePastWritten(false, pcm)
        let channels = format.channels
        let total = frames.count / channels
        var done = 0
        while done < total {
            let avail = snd_pcm_avail_update(pcm)
            if avail < 0 {
                if recover(Int32(avail)) { continue }
                break
            }
            let n = min(Int(avail), total - done, bufferFrames)
            if n == 0 { break }
            SampleConversion.int16(from: base + done * channels, to: buffer, frames: n, channels: channels, order: order)
            let wrote = snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(n))
            if wrote < 0 {
                if wrote == -Int(EAGAIN) { break }
                if recover(Int32(wrote)) { continue }
                break
            }
            cutState.playingOut = false
            remember(buffer, frames: Int(wrote), channels: channels)
            lastDelay += Int64(wrote)
            done += Int(wrote)
        }
        return done
    }

    /// Free space from `snd_pcm_avail_update` (0 below a refill while the device runs; a prepared
    /// device takes all it has room for), the delay from `snd_pcm_delay`.
    public func state() -> DeviceState {
        guard !lost, let pcm else {
            return DeviceState(freeFrames: 0, delayFrames: lostDelay + lastDelay, playing: false, lost: lost)
        }
        var avail = snd_pcm_avail_update(pcm)
        if avail < 0 && recover(Int32(avail)) { avail = snd_pcm_avail_update(pcm) }
        guard !lost else { return state() }
        var delay: snd_pcm_sframes_t = 0
        let running = snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING
        if snd_pcm_delay(pcm, &delay) >= 0 {
            lastDelay = Int64(max(0, delay))
            lastDelayAt = .now()
            lastDelayRunning = running && !paused
        }
        var free = max(0, Int(avail))
        if paused || isHeld || (running && free < refillFrames) { free = 0 }
        return DeviceState(freeFrames: free, delayFrames: lostDelay + lastDelay, playing: running && !paused)
    }

    /// In one `poll` until a refill is free or `wakeup`; while lost or held, asleep until the
    /// next reopen attempt (which it makes) or the end of the hold.
    public func wait(timeout: Duration) {
        let now = MonotonicInstant.now()
        let deadline = now + max(.zero, timeout)
        if lost || isHeld {
            wakeups.sleep(until: min(deadline, lost ? (lastReopenAttempt ?? now) + Self.reopenInterval : holdUntil ?? now))
            if lost { reopenIfDue() }
            return
        }
        guard let pcm, !paused, let fds = pollDescriptors,
            snd_pcm_poll_descriptors(pcm, fds, UInt32(pcmDescriptorCount)) == Int32(pcmDescriptorCount)
        else {
            wakeups.sleep(until: deadline)
            return
        }
        fds[pcmDescriptorCount] = pollfd(fd: wakeups.pollDescriptor, events: Int16(POLLIN), revents: 0)
        // As `snd_pcm_wait` does, but watching the wake-up pipe too: a descriptor that is ready
        // while the device says nothing (a plugin's) is polled again until the deadline. One that
        // says there is room when less than a refill is free (dmix, or another plugin that wakes
        // every period whatever `avail_min` says) is polled again only until the refill is due
        // (when the missing frames have played): its next tick may come a period later, as the
        // buffer runs dry. The descriptors stay watched meanwhile, so that an xrun or a suspend
        // is seen when it happens (a device stops where it faulted: time it is not seen is lost).
        var wakeAt = deadline
        while true {
            guard poll(fds, nfds_t(pcmDescriptorCount + 1), wakeAt.pollMillisecondsFromNow) > 0 else { return }
            if wakeups.take() { return }
            var revents: UInt16 = 0
            guard snd_pcm_poll_descriptors_revents(pcm, fds, UInt32(pcmDescriptorCount), &revents) >= 0 else { return }
            if revents & UInt16(POLLERR) != 0 {
                // An underrun or a suspend: what `snd_pcm_wait` would have reported.
                switch snd_pcm_state(pcm) {
                case SND_PCM_STATE_XRUN: _ = recover(-EPIPE)
                case SND_PCM_STATE_SUSPENDED: _ = recover(-ESTRPIPE)
                default: break
                }
                return
            }
            if MonotonicInstant.now() >= wakeAt { return }
            if revents & UInt16(POLLOUT) != 0 {
                let avail = snd_pcm_avail_update(pcm)
                guard avail >= 0, avail < refillFrames, snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, let format else { return }
                wakeAt = min(deadline, .now() + .frames(Int64(refillFrames - avail), rate: format.sampleRate))
            }
            fds[pcmDescriptorCount].revents = 0
        }
    }

    /// Plays out what the device holds, recovering from an underrun or a suspend on the way like
    /// `write` does (it looks every 25 ms), and seeing `wakeup` at once (it sleeps on the
    /// wake-up pipe).
    ///
    /// `snd_pcm_drain` is called only for the last 50 ms (or the last period, when shorter; or to
    /// start a device that never reached its start threshold): alsa-lib 1.2.8's ioplug drain
    /// blocks even on a non-blocking PCM and drops what is left when the device faults meanwhile,
    /// so the rest is waited for here.
    @discardableResult
    public func drain() -> Bool {
        if paused { return false }
        guard let pcm, let format, !lost else { return true }
        silencePastWritten(false, pcm)
        let deadline = MonotonicInstant.now() + .seconds(3) + .frames(2 * Int64(deviceBufferFrames), rate: format.sampleRate)
        var drainCalls = 0
        let drainFrames = min(periodFrames, format.sampleRate / 20)
        draining: while true {
            if lost { return true }
            // Woken: what is left stays buffered (the owner resets it when it means to drop it).
            if wakeups.take() { return false }
            if MonotonicInstant.now() > deadline {
                snd_pcm_drop(pcm)
                break
            }
            let avail = snd_pcm_avail_update(pcm)  // moves the pointer; alsa-lib notices the end here
            if avail < 0 {
                guard recover(Int32(avail)) else { return true }
                drainCalls = 0
                continue
            }
            let left = max(0, deviceBufferFrames - Int(avail))
            switch snd_pcm_state(pcm) {
            case SND_PCM_STATE_SETUP:
                break draining
            case SND_PCM_STATE_RUNNING where left > drainFrames:
                let playing = Duration.frames(Int64(left - drainFrames), rate: format.sampleRate)
                if wakeups.sleep(until: .now() + min(.milliseconds(25), max(.milliseconds(1), playing))) { return false }
            case SND_PCM_STATE_PREPARED, SND_PCM_STATE_RUNNING:
                // Starts a prepared device (and flushes what a plugin such as `file` keeps back,
                // even when the device says it holds nothing). Non-blocking on a kernel device
                // (-EAGAIN: draining has begun).
                if drainCalls >= 3 { break draining }
                drainCalls += 1
                let rc = snd_pcm_drain(pcm)
                if rc < 0 && rc != -EAGAIN && snd_pcm_state(pcm) != SND_PCM_STATE_SETUP && !recover(rc) { return true }
            case SND_PCM_STATE_DRAINING:
                // A kernel device that has finished wakes us with POLLERR (-EIO): the state says.
                if snd_pcm_wait(pcm, 25) < 0 && snd_pcm_state(pcm) == SND_PCM_STATE_DRAINING { usleep(10_000) }
            case SND_PCM_STATE_XRUN:
                if !recover(-EPIPE) { return true }
                drainCalls = 0
            case SND_PCM_STATE_SUSPENDED:
                if !recover(-ESTRPIPE) { return true }
                drainCalls = 0
            case SND_PCM_STATE_PAUSED:
                return false
            default:  // disconnected
                _ = recover(-ENODEV)
                return true
            }
        }
        snd_pcm_prepare(pcm)
        lastDelay = 0
        return true
    }

    /// Pauses with `snd_pcm_pause`; a device that cannot pause (or has not started) is stopped
    /// instead, and what it held unplayed is written again on resume.
    public func setPaused(_ paused: Bool) {
        cutState.proposed = nil
        guard paused != self.paused else { return }
        self.paused = paused
        guard let pcm, format != nil, !lost else { return }
        if paused {
            if snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, snd_pcm_pause(pcm, 1) >= 0 { return }
            droppedForPause = unplayedFrames(pcm)
            snd_pcm_drop(pcm)
        } else if let dropped = droppedForPause {
            droppedForPause = nil
            snd_pcm_prepare(pcm)
            if dropped > 0 { resend(dropped, to: pcm) }
        } else {
            snd_pcm_pause(pcm, 0)
        }
    }

    /// Closes the PCM and frees the buffers.
    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
        buffer?.deallocate()
        buffer = nil
        pollDescriptors?.deallocate()
        pollDescriptors = nil
        pcmDescriptorCount = 0
        order?.deallocate()
        order = nil
        history?.deallocate()
        history = nil
        if let silenceParams { snd_pcm_sw_params_free(silenceParams) }
        silenceParams = nil
    }

    /// Ends a `wait` at once, a `drain` within 25 ms.
    public func wakeup() { wakeups.signal() }

    /// Writes are held back after a reopen (see `holdUntil`).
    var isHeld: Bool {
        guard let holdUntil else { return false }
        if MonotonicInstant.now() < holdUntil { return true }
        self.holdUntil = nil
        return false
    }

    /// For output channel `c`, the WAV-order input channel it takes (ALSA's default layouts).
    static func alsaOrder(channels: Int) -> [Int] {
        switch channels {
        case 5: [0, 1, 3, 4, 2]  // FL FR RL RR FC  <- FL FR FC BL BR
        case 6: [0, 1, 4, 5, 2, 3]  // FL FR RL RR FC LFE  <- FL FR FC LFE BL BR
        case 8: [0, 1, 4, 5, 2, 3, 6, 7]  // FL FR RL RR FC LFE SL SR  <- FL FR FC LFE BL BR SL SR
        default: Array(0..<channels)
        }
    }

    /// Runs `body` with alsa-lib's error printing silenced on this thread: its "ALSA lib …
    /// cannot find card '0'" lines would bury our one-line message (the error code carries it).
    static func quietly<T>(_ body: () -> T) -> T {
        let previous = snd_lib_error_set_local { _, _, _, _, _, _ in }
        defer { snd_lib_error_set_local(previous) }
        return body()
    }

    static func text(_ code: some BinaryInteger) -> String {
        String(cString: snd_strerror(Int32(code)))
    }
}
