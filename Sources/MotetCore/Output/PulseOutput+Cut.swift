import CPulse
import Glibc
import MotetEvents
import MotetSystem

/// Seek, skip, stop and pause without a step (README, "Crossfade and fades"): instead of dropping
/// the server's queue at once (`pa_stream_flush`: what plays stops dead, and where it stopped is
/// only the interpolated latency's guess), `cut` picks a place in the queue a little ahead of
/// what the server has read (`cutMargin`), and `reset` makes the next write start there
/// (`PA_SEEK_ABSOLUTE`): the new audio (a fade out that starts at that very frame) replaces the
/// old from there on, and everything before it plays on untouched.
///
/// What is left of the old queue after the new audio: pipewire-pulse keeps a ring, its write
/// index moves back, and what lay beyond is gone. PulseAudio's memblockq keeps it (a write splits
/// the block it lands in and keeps the end): it is not played while prebuffering is on (a queue
/// read up to its write index prebuffers again) and later writes overwrite it, but a drain turns
/// prebuffering off and would play it after our last frame, so a drain first waits until the
/// server ran dry and flushes it (`dropStaleAudioLocked`).
extension PulseOutput {
    /// How far ahead of the server's read index a cut lands: the time for the timing answer to
    /// reach us, for the control thread to reposition and for the decoder's first write to
    /// reach the server, with room to spare.
    /// Short: a pause or a seek is heard that much later (PulseLatencyTests: a pause silent
    /// within 100 ms; at 80 ms it took 115 to 158). The decoder's first frames after a cut come
    /// within a few milliseconds (DeviceFadeTests).
    static let cutMargin: Duration = .milliseconds(40)
    /// A sink whose latency is longer than this renders ahead and rewinds (`cut`).
    static let rendersAhead: Duration = .milliseconds(100)
    /// How long before the server reaches the cut its first write must be sent; later, the cut
    /// gives way to a flush (`sendPending`).
    static let cutSafety: Duration = .milliseconds(10)

    /// Where the queue will be rewritten, and how much of what was sent the rewrite takes back.
    struct CutState {
        /// Answers to `pa_stream_update_timing_info` so far (to wait for a fresh one).
        var timingAnswers = 0
        /// Taken by `cut`, used by the `reset` that follows at once: a byte index of the stream.
        var proposed: (index: Int64, reclaimed: Int, deadline: MonotonicInstant)?
        /// The server is pipewire-pulse (its name says "PipeWire"): a ring, played whole quanta
        /// at a time.
        var queueIsRing = false
        /// Where this epoch starts in the stream (after a cut), and where the old audio past it
        /// ends in PulseAudio's queue (nil: nothing old lies past what we wrote).
        var epochIndex: Int64 = 0
        var staleEnd: Int64?
        /// The server ran dry (an underflow) and nothing was written since.
        var dry = false
        /// Set by `reset`: where the next write goes, and how much more than the writable size it
        /// may send (the server asks for the rewritten part again only once it has it).
        var seekTo: (index: Int64, reclaimed: Int, deadline: MonotonicInstant)?
        /// `streamWritten` when `playOut` asked for a drain (nil: none asked since the reset).
        var playOutMark: Int64?
        /// That drain completed with nothing written since: the next write goes where the server
        /// reads (`PA_SEEK_RELATIVE_ON_READ`): pipewire-pulse's read index passed the write index
        /// by the silence that padded the last quantum, and would skip as much of what comes.
        var atReadIndex = false
    }

    /// Frames written and not to be heard when `reset` follows now: what the server holds past
    /// the cut, and what is still staged. Nil when the stream cannot cut cleanly (corked, run
    /// dry, drained, lost, no fresh timing): `reset` then flushes.
    public func cut() -> Int64? {
        var result: Int64?
        withLock {
            cutState.proposed = nil
            guard let stream, let format, !lost, !closed, !corked, !drained, underrunHeard == nil, lostDelay == 0,
                pa_stream_get_state(stream) == PA_STREAM_READY
            else { return }
            // A request still out may have been asked before the last writes: ask again, and wait
            // for both answers.
            let awaited = cutState.timingAnswers + (timingPending ? 2 : 1)
            timingPending = false
            requestTiming()
            guard timingPending,
                waitLocked(timeout: .milliseconds(500), { cutState.timingAnswers >= awaited || lost || closed }),
                !lost, !closed, self.stream == stream,
                let info = pa_stream_get_timing_info(stream)?.pointee,
                info.write_index_corrupt == 0, info.read_index_corrupt == 0, info.playing != 0
            else { return }
            let bytes = Int64(frameBytes)
            let epochStart = info.write_index - streamWritten * bytes
            let rate = Int64(format.sampleRate)
            let sinkAhead = Duration.microseconds(Int64(clamping: info.sink_usec))
            let target: Int64
            var ahead = Self.cutMargin
            if sinkAhead > Self.rendersAhead {
                // A sink that renders far ahead (PulseAudio's timer-scheduled ALSA sinks, its null
                // sink: a second or two) takes back what it rendered: a write before the read
                // index makes it rewind to there. Cut just after what is heard.
                target = info.read_index - sinkAhead.frames(rate: rate) * bytes + Self.cutMargin.frames(rate: rate) * bytes
            } else {
                // One that cannot: beyond what the server may read in one go. pipewire-pulse takes
                // a whole quantum of the graph at a time (its configured latency: 8192 frames
                // here); PulseAudio's pipe sink a block of 1024.
                let configured = Duration.microseconds(Int64(clamping: min(info.configured_sink_usec, 500_000)))
                ahead += configured
                target = info.read_index + ahead.frames(rate: rate) * bytes
            }
            // The first frame boundary of the epoch at or after the target.
            var index = epochStart + max(0, (target - epochStart + bytes - 1) / bytes) * bytes
            index = min(index, info.write_index)
            guard index >= info.read_index || sinkAhead > Self.rendersAhead else { return }
            cutState.proposed = (index, Int(info.write_index - index), .now() + ahead - Self.cutSafety)
            if !cutState.queueIsRing { cutState.staleEnd = max(cutState.staleEnd ?? 0, info.write_index) }
            result = (info.write_index - index) / bytes + Int64(pendingFrames)
        }
        return result
    }

    /// Asks the server to drain, without waiting: pipewire-pulse plays whole quanta of the graph
    /// only, and kept a fade out's last part (the remainder of a quantum) back until more audio
    /// came, so a pause or a stop ended with the step the fade was for, and play went on with
    /// the old audio; while draining it plays that remainder, padded with silence. PulseAudio
    /// plays it anyway, and a drain there would play the old audio past the cut.
    public func playOut() {
        withLock {
            guard cutState.queueIsRing, let stream, !lost, !closed, !corked, pa_stream_get_state(stream) == PA_STREAM_READY
            else { return }
            sendPending()
            cutState.atReadIndex = false
            cutState.playOutMark = streamWritten
            let operation = pa_stream_drain(
                stream,
                { _, success, ud in
                    let device = PulseOutput.device(ud)
                    if success != 0, device.cutState.playOutMark == device.streamWritten, device.pendingFrames == 0 {
                        device.cutState.atReadIndex = true
                    }
                }, userdata)
            if let operation { pa_operation_unref(operation) }
        }
    }

    /// Drops what is buffered and not heard: after a fresh `cut`, what lies past the cut (the
    /// next write goes there); otherwise all of it (`pa_stream_flush`).
    public func reset() {
        withLock {
            woken = false
            drained = false
            cutState.seekTo = nil
            cutState.playOutMark = nil
            cutState.atReadIndex = false
            if let stream, !lost {
                if let p = cutState.proposed, .now() < p.deadline, !corked {
                    cutState.seekTo = (p.index, p.reclaimed, p.deadline)
                    cutState.epochIndex = p.index
                } else {
                    cutState.staleEnd = nil
                    pa_operation_unref(pa_stream_flush(stream, nil, nil))
                }
            }
            cutState.proposed = nil
            pendingStart = 0
            pendingFrames = 0
            timingStale = true
            streamWritten = 0
            corkedHeard = corked ? 0 : nil
            underrunHeard = nil
            streamDelay = 0
            lostDelay = 0
        }
    }
}


extension PulseOutput {
    /// Asks the server's name once the context is ready (`CutState.queueIsRing`).
    func askServerKind(_ c: OpaquePointer) {
        let operation = pa_context_get_server_info(
            c,
            { _, info, ud in
                guard let info, let name = info.pointee.server_name else { return }
                PulseOutput.device(ud).cutState.queueIsRing = strstr(name, "PipeWire") != nil
            }, userdata)
        if let operation { pa_operation_unref(operation) }
    }

    /// Before a drain on PulseAudio, when old audio lies past our last frame (a cut near the end):
    /// waits until the server ran dry (all of ours played; the old audio is not, the queue
    /// prebuffers), then flushes it. False when interrupted as `drainLocked` is (corked, woken).
    func dropStaleAudioLocked() -> Bool {
        guard let staleEnd = cutState.staleEnd else { return true }
        guard cutState.epochIndex + streamWritten * Int64(frameBytes) < staleEnd else {
            cutState.staleEnd = nil  // overwritten since
            return true
        }
        while !cutState.dry {
            if corked { return false }
            if woken {
                woken = false
                return false
            }
            if lost || closed { return true }
            pa_threaded_mainloop_wait(mainloop)
        }
        if let stream { pa_operation_unref(pa_stream_flush(stream, nil, nil)) }
        timingStale = true
        cutState.staleEnd = nil
        return true
    }
}
