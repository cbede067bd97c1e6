import CAudioLibraries
import CALSA
import Glibc
import MotetEvents
import Synchronization

/// Plays through an ALSA PCM ("default" or a named device): interleaved S16, a ~200 ms buffer,
/// recovery from underruns and suspend.
///
/// Writes are non-blocking calls paced by `snd_pcm_wait`, so `interruptWrite` and `pause` are seen
/// within one period. Channels beyond stereo are reordered from WAV order to ALSA's default
/// (FL FR RL RR FC LFE SL SR).
///
/// Recovery (tested against a fault-injecting ioplug device, Tests/ALSAFault):
/// - An underrun (-EPIPE) or a suspend (-ESTRPIPE) goes through `snd_pcm_recover`. A device left
///   suspended by it (an ioplug device without a resume callback: alsa-lib's `snd_pcm_resume`
///   then returns 0 and changes nothing) is prepared. When the recovery prepared the device, the
///   frames it held unplayed are written again from a copy of the last buffer's worth of output,
///   so no frame of the music is lost or repeated: a fault costs a gap of silence, not samples.
/// - Any other error (the device is gone: -ENODEV, -EBADFD...) sends `.lost` once; writes then
///   return 0 and the device is reopened once a second; when that works, `.restored` is sent and
///   writes wait (at most a second) for the player's `flush` back to the heard position.
public final class ALSASink: AudioSink, @unchecked Sendable {
    // `pcm` and the buffers are used on the sink thread, which alone replaces `pcm` (holding
    // `handleLock`); `pause`/`resume`/`flush` use `pcm` from other threads under `handleLock` and
    // call thread-safe alsa-lib functions; the flags are atomics.
    public let name = "alsa"
    private let device: String
    private var pcm: OpaquePointer?
    private var format: AudioFormat?
    private var periodFrames = 1024
    private var deviceBufferFrames = 0
    private var buffer: UnsafeMutablePointer<Int16>?
    private var bufferFrames = 0
    private var order: UnsafeMutablePointer<Int>?
    /// The last `historyFrames` frames written, as the device got them (ring), for re-sending what
    /// a recovery dropped.
    private var history: UnsafeMutablePointer<Int16>?
    private var historyFrames = 0
    /// Frames appended to `history` since the last open or flush.
    private var historyEnd = 0
    /// Held while `pcm` is replaced (sink thread) and while other threads use it.
    private let handleLock = Locked<Int>(0)
    /// The device failed beyond recovery; `write` retries opening it.
    private let lost = Atomic<Bool>(false)
    private var lastReopenAttempt: Int64 = 0
    /// After `.restored`: writes return 0 until this time (monotonic ns) or a `flush`, so that the
    /// player can go back to what was heard before anything newer reaches the new stream.
    private let holdUntil = Atomic<Int64>(0)
    private let underruns = Atomic<Int>(0)
    private let suspends = Atomic<Int>(0)
    private let resentFrames = Atomic<Int>(0)
    private let interrupted = Atomic<Bool>(false)
    private let paused = Atomic<Bool>(false)
    private let droppedForPause = Atomic<Bool>(false)
    private let position = HeardPosition()
    private let events = EventHandler()
    /// Target buffer length in microseconds.
    private static let latencyMicros: UInt32 = 200_000
    /// How often a lost device is tried again, in nanoseconds.
    private static let reopenNanos: Int64 = 1_000_000_000

    /// Opens `device` ("default" when nil) now, so that a machine without a card fails early.
    public init(device: String?) throws(OutputError) {
        self.device = device ?? "default"
        guard motet_load_alsa() == 0 else {
            throw OutputError(
                "motet: cannot use ALSA: \(String(cString: motet_audio_library_error())); install libasound2, or choose --output pulse, wav:PATH or null")
        }
        var handle: OpaquePointer?
        let rc = Self.quietly { snd_pcm_open(&handle, self.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) }
        guard rc >= 0, let handle else {
            throw OutputError(
                "motet: cannot open the ALSA device \(self.device): \(Self.text(rc)); check `aplay -L`, or choose --output pulse, wav:PATH or null"
            )
        }
        pcm = handle
    }

    deinit { close() }

    public func open(_ format: AudioFormat) throws(OutputError) {
        guard let pcm else { throw OutputError("motet: the ALSA output \(device) is already closed") }
        if self.format == format { return }
        if self.format != nil { drain() }
        let rc = configure(pcm, for: format)
        guard rc >= 0 else {
            throw OutputError("motet: the ALSA device \(device) cannot play \(format): \(Self.text(rc))")
        }
        self.format = format
        order?.deallocate()
        let map = Self.alsaOrder(channels: format.channels)
        order = .allocate(capacity: format.channels)
        for c in 0..<format.channels { order![c] = map[c] }
        paused.store(false, ordering: .relaxed)
        historyEnd = 0
        position.reset()
    }

    /// Sets `handle` up for `format` and sizes the conversion and history buffers for its period
    /// and buffer. Returns alsa-lib's status.
    private func configure(_ handle: OpaquePointer, for format: AudioFormat) -> Int32 {
        let rc = Self.quietly {
            snd_pcm_set_params(
                handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(format.channels),
                UInt32(format.sampleRate), 1, Self.latencyMicros)
        }
        guard rc >= 0 else { return rc }
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        if snd_pcm_get_params(handle, &bufferSize, &periodSize) >= 0, periodSize > 0 {
            periodFrames = Int(periodSize)
            deviceBufferFrames = Int(bufferSize)
        }
        let frames = max(periodFrames, 1024)
        if buffer == nil || frames != bufferFrames || format.channels != self.format?.channels {
            buffer?.deallocate()
            bufferFrames = frames
            buffer = .allocate(capacity: bufferFrames * format.channels)
        }
        let keep = max(deviceBufferFrames, bufferFrames)
        if history == nil || keep != historyFrames || format.channels != self.format?.channels {
            history?.deallocate()
            historyFrames = keep
            history = .allocate(capacity: historyFrames * format.channels)
            historyEnd = 0
        }
        return rc
    }

    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        if lost.load(ordering: .acquiring) && !reopenIfDue() { return 0 }
        let hold = holdUntil.load(ordering: .acquiring)
        if hold != 0 {
            if MonotonicClock.now() < hold { return 0 }
            holdUntil.store(0, ordering: .releasing)
        }
        guard let pcm, let format, let buffer, let order, let base = frames.baseAddress else { return 0 }
        let channels = format.channels
        let total = frames.count / channels
        var done = 0
        while done < total {
            if interrupted.exchange(false, ordering: .acquiringAndReleasing) { break }
            if paused.load(ordering: .acquiring) { break }
            let avail = snd_pcm_avail_update(pcm)
            if avail < 0 {
                if recover(Int32(avail)) { continue }
                break
            }
            let remaining = total - done
            // A prepared device starts only when its buffer is full (the start threshold): fill it
            // to the last frame instead of waiting for a period of room that will never come.
            if Int(avail) < min(periodFrames, remaining) && (avail == 0 || snd_pcm_state(pcm) != SND_PCM_STATE_PREPARED) {
                let rc = snd_pcm_wait(pcm, 100)
                if rc < 0 && !recover(rc) { break }
                continue
            }
            let n = min(Int(avail), remaining, bufferFrames)
            SampleConversion.int16(
                from: base + done * channels, to: buffer, frames: n, channels: channels, order: order)
            let wrote = snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(n))
            if wrote < 0 {
                if wrote == -Int(EAGAIN) { continue }
                if recover(Int32(wrote)) { continue }
                break
            }
            remember(buffer, frames: Int(wrote), channels: channels)
            done += Int(wrote)
            position.addWritten(Int(wrote))
        }
        publishHeard()
        return done
    }

    public func interruptWrite() {
        interrupted.store(true, ordering: .releasing)
    }

    public func pause() {
        handleLock.withLock { _ in
            guard let pcm, !paused.exchange(true, ordering: .acquiringAndReleasing) else { return }
            position.publish(heard: position.heard(), at: MonotonicClock.now(), advancingAt: 0)
            if snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, snd_pcm_pause(pcm, 1) >= 0 { return }
            // The device cannot pause: drop what it holds (at most one buffer) and prepare on resume.
            snd_pcm_drop(pcm)
            droppedForPause.store(true, ordering: .releasing)
        }
    }

    public func resume() {
        interrupted.store(false, ordering: .releasing)
        handleLock.withLock { _ in
            guard let pcm, paused.exchange(false, ordering: .acquiringAndReleasing) else { return }
            if droppedForPause.exchange(false, ordering: .acquiringAndReleasing) {
                snd_pcm_prepare(pcm)
                position.setWritten(position.heard())
            } else {
                snd_pcm_pause(pcm, 0)
            }
            publishHeard()
        }
    }

    public func flush() {
        interrupted.store(false, ordering: .releasing)
        holdUntil.store(0, ordering: .releasing)
        handleLock.withLock { _ in
            guard let pcm else { return }
            snd_pcm_drop(pcm)
            snd_pcm_prepare(pcm)
            historyEnd = 0
            position.reset()
        }
    }

    /// Plays out what the device holds, recovering from an underrun or a suspend on the way like
    /// `write` does, and seeing `interruptWrite` within 25 ms.
    ///
    /// `snd_pcm_drain` is called only for the last period (or to start a device that never
    /// filled its buffer): alsa-lib 1.2.8's ioplug drain blocks even on a non-blocking PCM and
    /// drops what is left when the device faults meanwhile, so the rest is waited for here.
    public func drain() {
        guard let pcm, let format, !paused.load(ordering: .acquiring), !lost.load(ordering: .acquiring) else { return }
        let rate = Int64(format.sampleRate)
        let deadline = MonotonicClock.now() + 3_000_000_000 + 2 * Int64(deviceBufferFrames) * 1_000_000_000 / rate
        var drainCalls = 0
        draining: while true {
            if paused.load(ordering: .acquiring) || lost.load(ordering: .acquiring) { return }
            if interrupted.exchange(false, ordering: .acquiringAndReleasing) || MonotonicClock.now() > deadline {
                snd_pcm_drop(pcm)
                break
            }
            let avail = snd_pcm_avail_update(pcm)  // moves the pointer; alsa-lib notices the end here
            if avail < 0 {
                guard recover(Int32(avail)) else { return }
                drainCalls = 0
                continue
            }
            let left = max(0, deviceBufferFrames - Int(avail))
            switch snd_pcm_state(pcm) {
            case SND_PCM_STATE_SETUP:
                break draining
            case SND_PCM_STATE_RUNNING where left > periodFrames:
                let micros = Int64(left - periodFrames) * 1_000_000 / rate
                usleep(UInt32(min(25_000, max(1_000, micros))))
            case SND_PCM_STATE_PREPARED, SND_PCM_STATE_RUNNING:
                // Starts a prepared device (and flushes what a plugin such as `file` keeps back,
                // even when the device says it holds nothing). Non-blocking on a kernel device
                // (-EAGAIN: draining has begun).
                if drainCalls >= 3 { break draining }
                drainCalls += 1
                let rc = snd_pcm_drain(pcm)
                if rc < 0 && rc != -EAGAIN && snd_pcm_state(pcm) != SND_PCM_STATE_SETUP && !recover(rc) { return }
            case SND_PCM_STATE_DRAINING:
                // A kernel device that has finished wakes us with POLLERR (-EIO): the state says.
                if snd_pcm_wait(pcm, 100) < 0 && snd_pcm_state(pcm) == SND_PCM_STATE_DRAINING { usleep(10_000) }
            case SND_PCM_STATE_XRUN:
                if !recover(-EPIPE) { return }
                drainCalls = 0
            case SND_PCM_STATE_SUSPENDED:
                if !recover(-ESTRPIPE) { return }
                drainCalls = 0
            case SND_PCM_STATE_PAUSED:
                return
            default:  // disconnected
                _ = recover(-ENODEV)
                return
            }
        }
        snd_pcm_prepare(pcm)
        position.publish(heard: position.written, at: MonotonicClock.now(), advancingAt: 0)
    }

    public func close() {
        handleLock.withLock { _ in
            guard let pcm else { return }
            snd_pcm_close(pcm)
            self.pcm = nil
        }
        buffer?.deallocate()
        buffer = nil
        order?.deallocate()
        order = nil
        history?.deallocate()
        history = nil
    }

    public var heardFrames: Int64 { position.heard() }

    /// Underruns recovered from since the sink was made.
    public var underrunCount: Int { underruns.load(ordering: .relaxed) }
    /// Suspends recovered from since the sink was made.
    public var suspendCount: Int { suspends.load(ordering: .relaxed) }
    /// Frames written again after a recovery dropped them unplayed, since the sink was made.
    public var resentFrameCount: Int { resentFrames.load(ordering: .relaxed) }

    /// `.lost` when the device fails beyond recovery, `.restored` when it could be reopened.
    public var onEvent: (@Sendable (SinkEvent) -> Void)? {
        get { events.handler }
        set { events.handler = newValue }
    }

    // MARK: Helpers

    /// Recovers from an underrun (-EPIPE), a suspend (-ESTRPIPE) or a signal (-EINTR), writing
    /// again what the recovery dropped unplayed. Returns false when the device is lost (`.lost`
    /// was sent).
    private func recover(_ error: Int32) -> Bool {
        guard let pcm else { return false }
        let unplayed = unplayedFrames(pcm)
        var rc = snd_pcm_recover(pcm, error, 1)
        if rc >= 0 && snd_pcm_state(pcm) == SND_PCM_STATE_SUSPENDED {
            // alsa-lib's ioplug answers snd_pcm_resume with 0 when the plugin cannot resume, and
            // leaves it suspended: snd_pcm_recover would "succeed" forever. Restart it instead.
            rc = snd_pcm_prepare(pcm)
        }
        guard rc >= 0 else {
            deviceLost()
            return false
        }
        if error == -EPIPE { underruns.wrappingAdd(1, ordering: .relaxed) }
        if error == -ESTRPIPE { suspends.wrappingAdd(1, ordering: .relaxed) }
        if error == -EPIPE || error == -ESTRPIPE { events.emit(.glitch) }
        if unplayed > 0 && snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED { resend(unplayed, to: pcm) }
        return true
    }

    /// Frames the device holds and has not played, read before a recovery drops them: the delay,
    /// or (a suspended kernel device refuses that) the buffer minus the room in it. 0 after a real
    /// underrun: the buffer ran dry.
    private func unplayedFrames(_ pcm: OpaquePointer) -> Int {
        var delay: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &delay) >= 0 { return max(0, Int(delay)) }
        if snd_pcm_state(pcm) == SND_PCM_STATE_SUSPENDED {
            let avail = snd_pcm_avail_update(pcm)
            if avail >= 0 { return max(0, deviceBufferFrames - Int(avail)) }
        }
        return 0
    }

    /// Keeps the `frames` just written (device order, S16) in the history ring.
    private func remember(_ samples: UnsafePointer<Int16>, frames: Int, channels: Int) {
        guard let history, historyFrames > 0 else { return }
        var copied = 0
        while copied < frames {
            let at = (historyEnd + copied) % historyFrames
            let n = min(frames - copied, historyFrames - at)
            (history + at * channels).update(from: samples + copied * channels, count: n * channels)
            copied += n
        }
        historyEnd += frames
    }

    /// Writes the last `count` frames of the history again (after a recovery prepared the device).
    private func resend(_ count: Int, to pcm: OpaquePointer) {
        guard let history, let format, historyFrames > 0 else { return }
        let channels = format.channels
        let n = min(count, historyFrames, historyEnd)
        var sent = 0
        while sent < n {
            let at = (historyEnd - n + sent) % historyFrames
            let piece = min(n - sent, historyFrames - at)
            let wrote = snd_pcm_writei(pcm, history + at * channels, snd_pcm_uframes_t(piece))
            if wrote <= 0 { break }
            sent += Int(wrote)
        }
        resentFrames.wrappingAdd(sent, ordering: .relaxed)
    }

    /// The device failed beyond recovery: stop the heard clock and tell the player, once.
    private func deviceLost() {
        position.publish(heard: position.heard(), at: MonotonicClock.now(), advancingAt: 0)
        lastReopenAttempt = MonotonicClock.now()
        if !lost.exchange(true, ordering: .acquiringAndReleasing) { events.emit(.lost) }
    }

    /// While the device is lost: tries to open it again, at most once a second. Returns true when
    /// writing can go on; once the device is back, `.restored` is sent and writes wait (up to a
    /// second) for the player's `flush` back to what was heard.
    private func reopenIfDue() -> Bool {
        let now = MonotonicClock.now()
        guard let format, now - lastReopenAttempt >= Self.reopenNanos else { return false }
        lastReopenAttempt = now
        var handle: OpaquePointer?
        let rc = Self.quietly { snd_pcm_open(&handle, self.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) }
        guard rc >= 0, let handle else { return false }
        guard configure(handle, for: format) >= 0 else {
            snd_pcm_close(handle)
            return false
        }
        handleLock.withLock { generation in
            if let old = pcm { snd_pcm_close(old) }
            pcm = handle
            generation += 1
        }
        historyEnd = 0
        droppedForPause.store(false, ordering: .relaxed)
        position.setWritten(position.heard())
        holdUntil.store(now + Self.reopenNanos, ordering: .releasing)
        lost.store(false, ordering: .releasing)
        events.emit(.restored)
        return false
    }

    /// Publishes heard = written - the device's delay, advancing while the device runs.
    private func publishHeard() {
        guard let pcm, let format else { return }
        var delay: snd_pcm_sframes_t = 0
        let now = MonotonicClock.now()
        let written = position.written
        guard snd_pcm_delay(pcm, &delay) >= 0 else { return }
        let running = snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING && !paused.load(ordering: .relaxed)
        position.publish(
            heard: max(0, written - Int64(max(0, delay))), at: now, advancingAt: running ? Int64(format.sampleRate) : 0)
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
    private static func quietly<T>(_ body: () -> T) -> T {
        let previous = snd_lib_error_set_local { _, _, _, _, _, _ in }
        defer { snd_lib_error_set_local(previous) }
        return body()
    }

    private static func text(_ code: some BinaryInteger) -> String {
        String(cString: snd_strerror(Int32(code)))
    }
}
