import MotetOutput
import MotetSystem

/// The sink thread's news for the control thread: dry spells, the heard position, events.
extension SinkWorker {
    /// Sink thread.
    /// The ring is empty: asks the dry spell (`DrySpell`) whether to say `.starving` (before the
    /// end, open, not paused). Returns how long to wait before looking again, in nanoseconds (nil:
    /// nothing to watch, wait for the decoder to post).
    func ranDry(_ state: DeviceState?) -> Int64? {
        ThreadRole.sink.check()
        guard let format, !ended, !paused, markers.peek() == nil else { return nil }
        let (wait, starved) = drySpell.ringEmpty(device: state, rate: format.sampleRate, now: .now())
        if let starved { emit(.starving(since: starved)) }
        return wait
    }

    /// Sink thread.
    /// Samples are there: a starvation episode is over.
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
