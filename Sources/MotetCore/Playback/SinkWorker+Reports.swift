import MotetOutput
import MotetSystem

/// The sink thread's news for the control thread: dry spells, the heard position, events.
extension SinkWorker {
    /// Sink thread.
    /// The ring is empty: asks the dry spell (`DrySpell`) whether to say `.starving` (before the
    /// end, open, not paused). Returns how long to wait before looking again, in nanoseconds (nil:
    /// nothing to watch, wait for the decoder to post).
    @inline(__always)
    func ranDry(_ state: DeviceState?) -> Int64? {
        ThreadRole.sink.check()
        guard let format, !ended, !paused, markers.peek() == nil else { return nil }
        let (wait, starved) = drySpell.ringEmpty(device: state, rate: format.sampleRate, now: .now())
        if let starved { emit(.starving(since: starved)) }
        return wait
    }

    /// Sink thread.
    /// Samples are there: a starvation episode is over.
    @inline(__always)
    func flowing() {
        ThreadRole.sink.check()
        if drySpell.flowing() { emit(.fed) }
    }

    /// Sink thread, or the control thread while the sink thread is parked (`flushWhileParked`): not
    /// checked.
    /// Publishes heard = written - the device's delay, advancing at the rate while it plays, up
    /// to what the device can play without us (not into its staged frames: a reader after a stop
    /// must not count them heard). nil: nothing is buffered (everything written counts as heard),
    /// standing still.
    ///
    /// A position that differs from what the last one extrapolates to by more than a tenth of a
    /// second wakes the control thread, which shows it at once instead of at its next tick: after
    /// a stop (Ctrl-Z, `fg`) the last position, extrapolated, stops at what the server had taken
    /// when the sink thread last looked, and the server's own answer comes a moment after SIGCONT
    /// (the status line showed the stale second for half a second, then ran on through two).
    func publishHeard(_ state: DeviceState?) {
        let delay = state?.delayFrames ?? 0
        let rate = state?.playing == true && !paused ? Int64(format?.sampleRate ?? 0) : 0
        let heard = HeardNow(
            epoch: epoch, frames: max(0, written - delay), framesPerSecond: rate, at: .now(),
            limitFrames: written - (state?.stagedFrames ?? 0))
        let before = position.load()
        position.publish(heard)
        let tenth = Int64(format?.sampleRate ?? 0) / 10
        if before.epoch == heard.epoch, tenth > 0, abs(heard.frames - before.frames(at: heard.at)) > tenth { wake.signal() }
    }

    /// Sink thread.
    /// Queues `event` for the control thread and wakes it. Nothing is dropped: when the queue is
    /// full (hundreds of tiny tracks while the control thread was descheduled), waits for room,
    /// unless a park or quit is pending.
    func emit(_ event: OutputEvent) {
        ThreadRole.sink.check()
        while !events.pushFromWorker(event) {
            if gate.mustStop { return }
            wake.signal()
            dataReady.wait(for: .milliseconds(10))
        }
        wake.signal()
    }
}

extension SinkWorker {
    /// Control thread, while the sink thread is parked, right after `cutWhileParked`.
    /// What the output was to play of the segment being written from `cut` on, at most
    /// `maxFrames` of it, when that segment is read over the network (`WrittenHistory`): the
    /// part a device held, from the history, then what the ring holds and the sink had not
    /// written yet, up to the next segment. Nil for a local file, when the cut is not in that
    /// segment, or when nothing of it is left.
    func tailWhileParked(_ cut: OutputCut, maxFrames: Int64) -> AudioTail? {
        ThreadRole.control.check()
        guard history.isStream, let format, cut.epoch == epoch, maxFrames > 0 else { return nil }
        let channels = format.channels
        let start = ring.readIndex - Int(written - cut.frame) * channels
        var end = ring.writeIndex
        if let next = markers.peek() { end = min(end, next.sampleIndex) }
        end = min(end, start + Int(clamping: maxFrames) * channels)
        let count = max(0, (end - start) - (end - start) % channels)
        // What was written comes from the history, the rest from the ring: not before the
        // segment, and nothing either no longer holds.
        let fromHistory = max(0, min(count, history.through - start))
        guard start >= history.segmentStart, fromHistory == 0 || start >= history.from,
            fromHistory == count || start + fromHistory >= ring.writeIndex - ring.capacity, count >= channels
        else { return nil }
        var samples = [Float](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { out in
            if fromHistory > 0 { history.copy(from: start, count: fromHistory, into: out.baseAddress!) }
            ring.copy(from: start + fromHistory, count: count - fromHistory, into: out.baseAddress! + fromHistory)
        }
        return AudioTail(samples: samples, format: format, segmentID: history.segmentID)
    }
}
