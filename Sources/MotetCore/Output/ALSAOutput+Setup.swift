import CALSA
import Glibc
import MotetEvents

/// The hardware and software parameters of `ALSAOutput`: a long buffer refilled rarely.
extension ALSAOutput {
    /// The buffer asked for: the device gives the nearest it can (the largest it
    /// allows when that is shorter). Pause, seek and skip do not wait for it (a rewind to just
    /// ahead of what plays, `snd_pcm_pause` or `snd_pcm_drop`), so its length costs no
    /// responsiveness.
    static let buffer: Duration = .seconds(2)
    /// Periods per buffer asked for: with 2 s, a period (a sound card's interrupt) every 0.5 s.
    static let periodsPerBuffer: UInt32 = 4
    /// What is kept queued before the device wakes the player for a refill (at most half the
    /// buffer, at least a period): with a 2 s buffer, the player wakes when 1.5 s are free.
    static let reserve: Duration = .milliseconds(500)
    /// A prepared device starts once this much is written (after an open, a seek or a recovery),
    /// so that the first sound does not wait for the whole buffer to fill.
    static let start: Duration = .milliseconds(100)

    /// The parameters one `configure` settled on.
    struct Setup {
        var bufferFrames: Int
        var periodFrames: Int
        /// The free frames worth waking up for (the software `avail_min`).
        var refillFrames: Int
    }

    /// Sets `pcm` up for `format`: interleaved S16, the buffer nearest `buffer`, periods of a
    /// quarter of it, a refill when all but `reserve` are free, a start after `start`. Returns alsa-lib's status and, when it worked, what was set.
    static func setUp(_ pcm: OpaquePointer, for format: AudioFormat) -> (status: Int32, setup: Setup?) {
        var hwParams: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hwParams) >= 0, let hw = hwParams else { return (-ENOMEM, nil) }
        defer { snd_pcm_hw_params_free(hw) }
        var bufferTime = UInt32(buffer.microseconds)  // alsa-lib's times are in microseconds
        var periodTime: UInt32 = 0
        var dir: Int32 = 0
        var rc = snd_pcm_hw_params_any(pcm, hw)
        if rc >= 0 { rc = snd_pcm_hw_params_set_rate_resample(pcm, hw, 1) }
        if rc >= 0 { rc = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) }
        if rc >= 0 { rc = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE) }
        if rc >= 0 { rc = snd_pcm_hw_params_set_channels(pcm, hw, UInt32(format.channels)) }
        if rc >= 0 { rc = snd_pcm_hw_params_set_rate(pcm, hw, UInt32(format.sampleRate), 0) }
        if rc >= 0 { rc = snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, &dir) }
        if rc >= 0 {
            periodTime = max(1, bufferTime / periodsPerBuffer)
            dir = 0
            rc = snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, &dir)
        }
        if rc >= 0 { rc = snd_pcm_hw_params(pcm, hw) }
        guard rc >= 0 else { return (rc, nil) }
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        dir = 0
        guard snd_pcm_hw_params_get_buffer_size(hw, &bufferSize) >= 0,
            snd_pcm_hw_params_get_period_size(hw, &periodSize, &dir) >= 0, bufferSize > 0, periodSize > 0
        else { return (-EINVAL, nil) }
        let setup = plan(bufferFrames: Int(bufferSize), periodFrames: Int(periodSize), rate: format.sampleRate)

        var swParams: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&swParams) >= 0, let sw = swParams else { return (-ENOMEM, nil) }
        defer { snd_pcm_sw_params_free(sw) }
        let start = min(setup.bufferFrames, max(1, Int(Self.start.frames(rate: Int64(format.sampleRate)))))
        rc = snd_pcm_sw_params_current(pcm, sw)
        if rc >= 0 { rc = snd_pcm_sw_params_set_start_threshold(pcm, sw, snd_pcm_uframes_t(start)) }
        if rc >= 0 { rc = snd_pcm_sw_params_set_avail_min(pcm, sw, snd_pcm_uframes_t(setup.refillFrames)) }
        if rc >= 0 { rc = snd_pcm_sw_params(pcm, sw) }
        guard rc >= 0 else { return (rc, nil) }
        return (0, setup)
    }

    /// The refill size for a buffer of `bufferFrames` in periods of `periodFrames`: all but
    /// `reserve` (at most half the buffer, at least a period), in whole periods.
    static func plan(bufferFrames: Int, periodFrames: Int, rate: Int) -> Setup {
        let reserve = max(periodFrames, min(Int(Self.reserve.frames(rate: Int64(rate))), bufferFrames / 2))
        var refill = max(0, bufferFrames - reserve)
        refill -= refill % periodFrames
        return Setup(bufferFrames: bufferFrames, periodFrames: periodFrames, refillFrames: max(periodFrames, refill))
    }
}
