import CPulse
import Glibc
import MotetEvents
import MotetSystem

/// The staging ring of `PulseOutput`: the sink thread converts into it (outside the main loop's
/// lock), and whoever holds the lock when the server wants more — usually the main loop's own
/// thread, in the stream's write callback — hands it to libpulse.
///
/// Why: a `pa_stream_write` from the sink thread wakes the main loop's thread to send the data,
/// and that thread then waits for the lock the writer still holds: with a refill in two writes
/// (the sample ring wraps), five or six wake-ups of the loop thread and two of the sink thread
/// per refill (`strace -f`, bench/RESULTS.md). Written from the write callback, the data goes out
/// in the same wake-up as the server's request, and the sink thread is woken only when the ring
/// has room worth topping up (`topUpFrames`), not for each request (PipeWire asks every `minreq`).
/// Everything here but `write` runs with the main loop's lock held.
extension PulseOutput {
    /// Converts to S16 (outside the main loop's lock) into the staging ring and hands libpulse
    /// at once what the server is waiting for (`+Staging`).
    public func write(_ frames: UnsafeBufferPointer<Float>) throws(OutputError) -> Int {
        guard let source = frames.baseAddress else { return 0 }
        pa_threaded_mainloop_lock(mainloop)
        guard let format, let staging, !lost, !closed, !corked, let stream, pa_stream_get_state(stream) == PA_STREAM_READY
        else {
            pa_threaded_mainloop_unlock(mainloop)
            return 0
        }
        let room = stagingFrames - pendingFrames
        let at = (pendingStart + pendingFrames) % stagingFrames
        pa_threaded_mainloop_unlock(mainloop)
        let channels = format.channels
        let n = min(room, frames.count / channels)
        guard n > 0 else { return 0 }
        // The free part of the ring is ours alone: the loop thread only reads the pending part.
        let first = min(n, stagingFrames - at)
        SampleConversion.int16(from: source, to: staging + at * channels, count: first * channels)
        if n > first {
            SampleConversion.int16(from: source + first * channels, to: staging, count: (n - first) * channels)
        }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        // Lost, replaced or reset meanwhile (the loop thread): nothing was taken.
        guard !lost, !closed, stream == self.stream, pa_stream_get_state(stream) == PA_STREAM_READY,
            at == (pendingStart + pendingFrames) % stagingFrames
        else { return 0 }
        pendingFrames += n
        cutState.proposed = nil  // written on: no cut follows
        sendPending()
        return n
    }

    /// The room in the ring worth waking the sink thread for: half of it.
    var topUpFrames: Int { max(1, stagingFrames / 2) }

    /// The server asked for more (write callback, on the loop's thread): send what is staged and
    /// wake the sink thread when the ring is worth topping up (or ran empty).
    func serverAsked() {
        sendPending()
        if pendingFrames == 0 || stagingFrames - pendingFrames >= topUpFrames { signalAfterSending() }
    }

    /// Signals the sink thread from a deferred event, run after libpulse's own (which sends what
    /// `sendPending` wrote): woken earlier, the sink thread would find the loop's lock still held
    /// and sleep once more for it.
    func signalAfterSending() {
        let api = pa_threaded_mainloop_get_api(mainloop)!
        if let signalEvent {
            api.pointee.defer_enable(signalEvent, 1)
            return
        }
        signalEvent = api.pointee.defer_new(
            api,
            { api, event, ud in
                api?.pointee.defer_enable(event, 0)
                PulseOutput.device(ud).signal()
            }, userdata)
        if signalEvent == nil { signal() }
    }

    /// Hands libpulse as much of the staged audio as the server is waiting for (at most two
    /// writes: the ring may wrap), and asks for fresh timing when it is stale.
    func sendPending() {
        guard pendingFrames > 0, let staging, let format, let stream, !lost, !closed,
            pa_stream_get_state(stream) == PA_STREAM_READY
        else { return }
        let writable = pa_stream_writable_size(stream)
        guard writable != -1 else { return }
        // After a cut (`+Cut`) the first write goes to the cut, over what the server held there;
        // if it comes too late (the decoder was slow), the server may have read past the cut:
        // flush, as without a cut.
        if let seek = cutState.seekTo, MonotonicInstant.now() >= seek.deadline {
            cutState.seekTo = nil
            cutState.staleEnd = nil
            pa_operation_unref(pa_stream_flush(stream, nil, nil))
        }
        let seek = cutState.seekTo
        var left = min((writable + (seek?.reclaimed ?? 0)) / frameBytes, pendingFrames)
        while left > 0 {
            let piece = min(left, stagingFrames - pendingStart)
            let data = staging + pendingStart * format.channels
            if let seek = cutState.seekTo {
                guard pa_stream_write(stream, data, piece * frameBytes, nil, seek.index, PA_SEEK_ABSOLUTE) >= 0 else { break }
                cutState.seekTo = nil
            } else if cutState.atReadIndex {
                guard pa_stream_write(stream, data, piece * frameBytes, nil, 0, PA_SEEK_RELATIVE_ON_READ) >= 0 else { break }
                cutState.atReadIndex = false
            } else {
                guard pa_stream_write(stream, data, piece * frameBytes, nil, 0, PA_SEEK_RELATIVE) >= 0 else { break }
            }
            pendingStart = (pendingStart + piece) % stagingFrames
            pendingFrames -= piece
            streamWritten += Int64(piece)
            drained = false
            cutState.dry = false
            left -= piece
        }
        if timingStale || timingAskedAt.map({ .now() - $0 >= Self.timingRefresh }) ?? true {
            requestTiming()
        }
    }

    /// The ring's room when it is worth writing, else 0: from the moment it reaches
    /// `topUpFrames` until the ring is full again (a top-up often takes two writes: the sample
    /// ring wraps), so that the next request finds a full ring; between top-ups the sink thread
    /// sleeps instead of adding a trickle after each server request.
    func stagingRoomWorthWriting() -> Int {
        let room = stagingFrames - pendingFrames
        if room >= topUpFrames { toppingUp = true }
        if room == 0 { toppingUp = false }
        return toppingUp ? room : 0
    }
}
