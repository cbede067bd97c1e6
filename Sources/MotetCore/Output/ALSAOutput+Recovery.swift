import CALSA
import Glibc
import MotetEvents
import MotetSystem

/// Recovery of `ALSAOutput`: underruns and suspends (writing again what a recovery dropped), and a
/// device that went away (reopening it).
extension ALSAOutput {
    /// Recovers from an underrun (-EPIPE), a suspend (-ESTRPIPE) or a signal (-EINTR), writing
    /// again what the recovery dropped unplayed. Returns false when the device is lost (`.lost`
    /// was sent). An underrun after `playOut` (the device played what it was given to the end)
    /// is no glitch.
    func recover(_ error: Int32) -> Bool {
        guard let pcm else { return false }
        let ranOut = error == -EPIPE && cutState.playingOut
        cutState.playingOut = false
        silencePastWritten(false, pcm)  // before a re-send writes
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
        if (error == -EPIPE && !ranOut) || error == -ESTRPIPE { onEvent?(.glitch) }
        if unplayed > 0 && snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED { resend(unplayed, to: pcm) }
        return true
    }

    /// Frames the device holds and has not played, read before a recovery drops them: the delay,
    /// or (a suspended kernel device refuses that) the buffer minus the room in it. 0 after a real
    /// underrun: the buffer ran dry.
    func unplayedFrames(_ pcm: OpaquePointer) -> Int {
        var delay: snd_pcm_sframes_t = 0
        if snd_pcm_delay(pcm, &delay) >= 0 { return max(0, Int(delay)) }
        if snd_pcm_state(pcm) == SND_PCM_STATE_SUSPENDED {
            let avail = snd_pcm_avail_update(pcm)
            if avail >= 0 { return max(0, deviceBufferFrames - Int(avail)) }
        }
        return 0
    }

    /// Keeps the `frames` just written (device order, S16) in the history ring.
    func remember(_ samples: UnsafePointer<Int16>, frames: Int, channels: Int) {
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
    func resend(_ count: Int, to pcm: OpaquePointer) {
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
    }

    /// The device failed beyond recovery: tell the owner, once; `wait` reopens it. Its delay is
    /// what was measured last, less what it has played since then (a gone device cannot say, and
    /// with a long buffer the last measurement may be a second old).
    func deviceLost() {
        let now = MonotonicInstant.now()
        lastReopenAttempt = now
        if !lost {
            if lastDelayRunning, let format {
                lastDelay = max(0, lastDelay - now.frames(since: lastDelayAt, rate: Int64(format.sampleRate)))
                lastDelayRunning = false
            }
            lost = true
            onEvent?(.lost)
        }
    }

    /// While the device is lost: tries to open it again, at most once a second. Once the device is
    /// back, `.restored` is sent and writes wait (up to a second) for the owner's `reset` back to
    /// what was heard.
    func reopenIfDue() {
        let now = MonotonicInstant.now()
        guard let format, lastReopenAttempt.map({ now - $0 >= Self.reopenInterval }) ?? true else { return }
        lastReopenAttempt = now
        var handle: OpaquePointer?
        let rc = Self.quietly { snd_pcm_open(&handle, self.device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) }
        guard rc >= 0, let handle else { return }
        guard configure(handle, for: format) >= 0 else {
            snd_pcm_close(handle)
            return
        }
        if let old = pcm { snd_pcm_close(old) }
        pcm = handle
        historyEnd = 0
        droppedForPause = nil
        // What the old device held was never heard: it stays in the delay until the owner resets.
        lostDelay += lastDelay
        lastDelay = 0
        holdUntil = now + Self.reopenInterval
        lost = false
        onEvent?(.restored)
    }
}
