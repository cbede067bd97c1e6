import CALSA
import Glibc
import MotetEvents
import MotetSystem

/// Seek, skip, stop and pause without a step (README, "Crossfade and fades"), as
/// PulseOutput+Cut.swift does on a sound server: instead of dropping the device's buffer
/// (`snd_pcm_drop`: what plays stops dead, and where it stopped is only the delay's guess),
/// `cut` picks a place in the buffer a little ahead of the hardware pointer (`cutMargin`), and
/// `reset` moves the application pointer back there (`snd_pcm_rewind`): the next write (a fade
/// out that starts at that very frame) overwrites the old audio from there on, everything before
/// plays on untouched, and the device never stops.
///
/// Only a device whose whole delay lies in the ring that the pointers describe can be rewound
/// this way (`cut`'s `prefetchLimit`): alsa-lib's I/O plugins (the pulse and pipewire ones)
/// pass what they are given on at once, yet alsa-lib rewinds their application pointer and says
/// it did; their delay (their server's) tells them apart. Those, a device that says it cannot
/// rewind (`snd_pcm_rewindable` 0: the rate plugin) and a device that is paused, stopped, lost
/// or holds too little are reset as before: dropped.
///
/// After the fade the sink may write nothing more for a while (a pause point, a stop, a decoder
/// late with what follows: `playOut`): the device plays what it holds and underruns, which is
/// then no glitch to tell the user about; the next write prepares it and goes on (`recover`).
/// A sound card notices it ran dry only at its next period interrupt (up to a period later: half
/// a second with our buffer) and plays on from its ring meanwhile, where what the rewind took
/// back still lies (the old audio, from the cut on): so a play-out has the kernel fill the ring
/// past what was written with silence (`silencePastWritten`), as it does itself for a drain.
/// The test device cannot show this (it stops exactly where the audio ends, and ignores the
/// silence parameters); for a device that ignores them, nothing changes.
extension ALSAOutput {
    /// How far ahead of the hardware pointer a cut lands: the time for the control thread to
    /// reset the device, for the decoder to write the fade out into the ring and for the sink
    /// to write it to the device, with room to spare; the same as `PulseOutput.cutMargin`, whose
    /// measurements hold here too (the decoder's first frames come within a few milliseconds).
    /// It also covers what a card's DMA fetched ahead of the pointer it reports (PulseAudio keeps
    /// 1.33 ms for that when it rewinds a card). A pause or a seek is heard that much later.
    static let cutMargin: Duration = .milliseconds(40)
    /// The most a device's delay may exceed what its ring holds (frames the hardware took ahead
    /// of its pointer: a FIFO, USB packets in flight), added to the margin: a rewind cannot take
    /// them back. More, and the delay is not the ring's (a sound server behind an I/O plugin):
    /// no cut.
    static let prefetchLimit: Duration = .milliseconds(5)
    /// The least that must still lie ahead of the hardware pointer when `reset` rewinds, for the
    /// fade's first write to arrive in time; otherwise the device is dropped.
    static let cutSafety: Duration = .milliseconds(10)

    /// A cut offered and not yet used, and a play-out under way.
    struct CutState {
        /// Taken by `cut`, used by the `reset` that follows at once: the frames to take back
        /// from the end of what was written.
        var proposed: Int?
        /// `playOut` let the device run dry, and nothing was written since: the underrun at the
        /// end of what it holds is expected (no `.glitch`).
        var playingOut = false
        /// The device was asked to fill its ring past what was written with silence.
        var silencing = false
    }

    /// Frames written and not to be heard when `reset` follows now: all but `cutMargin` (and
    /// what the hardware took ahead) of what the device holds. Nil when it cannot cut cleanly
    /// (see the extension's comment): `reset` then drops.
    public func cut() -> Int64? {
        cutState.proposed = nil
        guard let pcm, let format, !lost, !paused, !isHeld, lostDelay == 0, droppedForPause == nil,
            snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, let ring = ringNow(pcm)
        else { return nil }
        let rate = Int64(format.sampleRate)
        guard abs(ring.prefetched) <= Int(Self.prefetchLimit.frames(rate: rate)) else { return nil }
        let keep = Int(Self.cutMargin.frames(rate: rate)) + max(0, ring.prefetched)
        // The rewind counts back from the application pointer; a plugin may allow less than the
        // ring holds.
        let frames = min(Int(snd_pcm_rewindable(pcm)), ring.queued - keep)
        guard frames > 0 else { return nil }
        cutState.proposed = frames
        return Int64(frames)
    }

    /// Drops what is buffered and not heard: after a fresh `cut`, what lies past the cut (the
    /// device plays on, and the next write goes there); otherwise all of it (`snd_pcm_drop`,
    /// then prepare). Ends a hold after a reopen.
    public func reset() {
        _ = wakeups.take()
        holdUntil = nil
        lostDelay = 0
        droppedForPause = nil
        let proposed = cutState.proposed
        if let pcm { silencePastWritten(false, pcm) }
        cutState = CutState()
        guard let pcm, !lost else {
            historyEnd = 0
            lastDelay = 0
            return
        }
        if let proposed, rewind(proposed, pcm) { return }
        historyEnd = 0
        lastDelay = 0
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
    }

    /// Nothing more is written for now: a device that was never started (it holds less than
    /// its start threshold, e.g. a fade out after a drop) is started so that it plays what it
    /// holds; a running one plays on. Either then underruns at the end of what it holds, which
    /// `recover` takes quietly, into silence (`silencePastWritten`).
    public func playOut() {
        guard let pcm, format != nil, !lost, !paused, !isHeld else { return }
        switch snd_pcm_state(pcm) {
        case SND_PCM_STATE_PREPARED:
            guard unplayedFrames(pcm) > 0, snd_pcm_start(pcm) >= 0 else { return }
        case SND_PCM_STATE_RUNNING:
            break
        default:
            return
        }
        cutState.playingOut = true
        silencePastWritten(true, pcm)
    }

    /// Asks the kernel to keep (all but one frame of) the ring past what was written filled with
    /// silence as the device plays (the silence threshold and size: it fills at once, then again
    /// as the hardware pointer moves), or to stop: on only while nothing is written (after
    /// `playOut`; off before a write, a re-send, a reset or a drain), so that the kernel never
    /// fills where writes land. A device that does not do it (alsa-lib's I/O plugins) takes the
    /// parameters and ignores them.
    /// Asked as it already is, it does nothing: every write, re-send, reset and drain asks it off.
    func silencePastWritten(_ on: Bool, _ pcm: OpaquePointer) {
        guard on != cutState.silencing else { return }
        cutState.silencing = on
        guard let sw = silenceParams else { return }
        // alsa-lib wants the threshold below the buffer; the kernel wants the size within it.
        let frames = on ? snd_pcm_uframes_t(max(0, deviceBufferFrames - 1)) : 0
        guard snd_pcm_sw_params_current(pcm, sw) >= 0, snd_pcm_sw_params_set_silence_threshold(pcm, sw, frames) >= 0,
            snd_pcm_sw_params_set_silence_size(pcm, sw, frames) >= 0
        else { return }
        snd_pcm_sw_params(pcm, sw)
    }

    /// What the device holds now, as its pointers say (moved to now) and as its delay says.
    private func ringNow(_ pcm: OpaquePointer) -> (queued: Int, prefetched: Int)? {
        var avail: snd_pcm_sframes_t = 0
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_avail_delay(pcm, &avail, &delay) >= 0 else { return nil }
        let queued = max(0, deviceBufferFrames - Int(avail))
        return (queued, Int(delay) - queued)
    }

    /// Takes the last `frames` written back (`cut`'s), when enough still lies ahead of the
    /// hardware pointer after them. False when it did not (the caller drops the device).
    private func rewind(_ frames: Int, _ pcm: OpaquePointer) -> Bool {
        guard let format, snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING, let ring = ringNow(pcm),
            ring.queued - frames >= Int(Self.cutSafety.frames(rate: Int64(format.sampleRate))),
            snd_pcm_rewindable(pcm) >= frames
        else { return false }
        // alsa-lib 1.2.8 does not hold a rewind to what is rewindable: asked only that much, and
        // anything else taken back is dropped by the caller.
        guard snd_pcm_rewind(pcm, snd_pcm_uframes_t(frames)) == frames else { return false }
        // The history's last frames are what the device no longer holds: a recovery re-sends
        // from the new end, and the next write is remembered there.
        historyEnd = max(0, historyEnd - frames)
        lastDelay = Int64(max(0, ring.queued + ring.prefetched - frames))
        lastDelayAt = .now()
        lastDelayRunning = true
        return true
    }
}
