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
public final class ALSASink: AudioSink, @unchecked Sendable {
    // `pcm` and the buffers are used on the sink thread; `pause`/`resume` call thread-safe alsa-lib
    // functions; the flags are atomics.
    public let name = "alsa"
    private let device: String
    private var pcm: OpaquePointer?
    private var format: AudioFormat?
    private var periodFrames = 1024
    private var buffer: UnsafeMutablePointer<Int16>?
    private var bufferFrames = 0
    private var order: UnsafeMutablePointer<Int>?
    private let interrupted = Atomic<Bool>(false)
    private let paused = Atomic<Bool>(false)
    private let droppedForPause = Atomic<Bool>(false)
    private let position = HeardPosition()
    private let events = EventHandler()
    /// Target buffer length in microseconds.
    private static let latencyMicros: UInt32 = 200_000

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
        let rc = Self.quietly {
            snd_pcm_set_params(
                pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, UInt32(format.channels),
                UInt32(format.sampleRate), 1, Self.latencyMicros)
        }
        guard rc >= 0 else {
            throw OutputError("motet: the ALSA device \(device) cannot play \(format): \(Self.text(rc))")
        }
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        if snd_pcm_get_params(pcm, &bufferSize, &periodSize) >= 0, periodSize > 0 { periodFrames = Int(periodSize) }
        self.format = format
        buffer?.deallocate()
        bufferFrames = max(periodFrames, 1024)
        buffer = .allocate(capacity: bufferFrames * format.channels)
        order?.deallocate()
        let map = Self.alsaOrder(channels: format.channels)
        order = .allocate(capacity: format.channels)
        for c in 0..<format.channels { order![c] = map[c] }
        paused.store(false, ordering: .relaxed)
        position.reset()
    }

    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        guard let pcm, let format, let buffer, let order, let base = frames.baseAddress else { return 0 }
        let channels = format.channels
        let total = frames.count / channels
        var done = 0
        while done < total {
            if interrupted.exchange(false, ordering: .acquiringAndReleasing) { break }
            if paused.load(ordering: .acquiring) { break }
            let avail = snd_pcm_avail_update(pcm)
            if avail < 0 {
                try recover(Int32(avail))
                continue
            }
            let remaining = total - done
            if Int(avail) < min(periodFrames, remaining) {
                let rc = snd_pcm_wait(pcm, 100)
                if rc < 0 { try recover(rc) }
                continue
            }
            let n = min(Int(avail), remaining, bufferFrames)
            SampleConversion.int16(
                from: base + done * channels, to: buffer, frames: n, channels: channels, order: order)
            let wrote = snd_pcm_writei(pcm, buffer, snd_pcm_uframes_t(n))
            if wrote < 0 {
                if wrote == -Int(EAGAIN) { continue }
                try recover(Int32(wrote))
                continue
            }
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
        guard let pcm, !paused.exchange(true, ordering: .acquiringAndReleasing) else { return }
        position.publish(heard: position.heard(), at: MonotonicClock.now(), advancingAt: 0)
        if snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, snd_pcm_pause(pcm, 1) >= 0 { return }
        // The device cannot pause: drop what it holds (at most one buffer) and prepare on resume.
        snd_pcm_drop(pcm)
        droppedForPause.store(true, ordering: .releasing)
    }

    public func resume() {
        interrupted.store(false, ordering: .releasing)
        guard let pcm, paused.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if droppedForPause.exchange(false, ordering: .acquiringAndReleasing) {
            snd_pcm_prepare(pcm)
            position.setWritten(position.heard())
        } else {
            snd_pcm_pause(pcm, 0)
        }
        publishHeard()
    }

    public func flush() {
        interrupted.store(false, ordering: .releasing)
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
        position.reset()
    }

    public func drain() {
        guard let pcm, format != nil, !paused.load(ordering: .acquiring) else { return }
        snd_pcm_nonblock(pcm, 0)
        snd_pcm_drain(pcm)
        snd_pcm_nonblock(pcm, 1)
        snd_pcm_prepare(pcm)
        position.publish(heard: position.written, at: MonotonicClock.now(), advancingAt: 0)
    }

    public func close() {
        guard let pcm else { return }
        snd_pcm_close(pcm)
        self.pcm = nil
        buffer?.deallocate()
        buffer = nil
        order?.deallocate()
        order = nil
    }

    public var heardFrames: Int64 { position.heard() }

    /// Never called: ALSA errors are thrown by `write`.
    public var onEvent: (@Sendable (SinkEvent) -> Void)? {
        get { events.handler }
        set { events.handler = newValue }
    }

    // MARK: Helpers

    /// Recovers from an underrun (-EPIPE), a suspend (-ESTRPIPE) or a signal; throws otherwise.
    private func recover(_ error: Int32) throws(OutputError) {
        guard let pcm else { return }
        if snd_pcm_recover(pcm, error, 1) < 0 {
            throw OutputError(
                "motet: the ALSA device \(device) failed: \(Self.text(error)); check the device or choose another output")
        }
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
