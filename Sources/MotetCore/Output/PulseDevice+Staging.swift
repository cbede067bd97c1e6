import CPulse
import Glibc
import MotetEvents

/// The staging ring of `PulseDevice`: the sink thread converts into it (outside the main loop's
/// lock), and whoever holds the lock when the server wants more — usually the main loop's own
/// thread, in the stream's write callback — hands it to libpulse.
///
/// Why: a `pa_stream_write` from the sink thread wakes the main loop's thread to send the data,
/// and that thread then waits for the lock the writer still holds: with a refill in two writes
/// (the sample ring wraps), five or six wake-ups of the loop thread and two of the sink thread
/// per refill (`strace -f`, bench/RESULTS.md). Written from the write callback, the data goes out
/// in the same wake-up as the server's request, and the sink thread is woken only when the ring
/// has room worth topping up (`topUpFrames`), not for each request (PipeWire asks every `minreq`).
/// Everything here runs with the main loop's lock held.
extension PulseDevice {
    /// The room in the ring worth waking the sink thread for: half of it.
    var topUpFrames: Int { max(1, stagingFrames / 2) }

    /// The server asked for more (write callback, on the loop's thread): send what is staged and
    /// wake the sink thread when the ring is worth topping up (or ran empty).
    func serverAsked() {
        sendPending()
        if pendingFrames == 0 || stagingFrames - pendingFrames >= topUpFrames { signal() }
    }

    /// Hands libpulse as much of the staged audio as the server is waiting for (at most two
    /// writes: the ring may wrap), and asks for fresh timing when it is stale.
    func sendPending() {
        guard pendingFrames > 0, let staging, let format, let stream, !lost, !closed,
            pa_stream_get_state(stream) == PA_STREAM_READY
        else { return }
        let writable = pa_stream_writable_size(stream)
        guard writable != -1 else { return }
        var left = min(writable / frameBytes, pendingFrames)
        while left > 0 {
            let piece = min(left, stagingFrames - pendingStart)
            guard pa_stream_write(
                stream, staging + pendingStart * format.channels, piece * frameBytes, nil, 0, PA_SEEK_RELATIVE) >= 0
            else { break }
            pendingStart = (pendingStart + piece) % stagingFrames
            pendingFrames -= piece
            streamWritten += Int64(piece)
            drained = false
            left -= piece
        }
        if timingStale || MonotonicClock.now() - timingAskedAt >= Self.timingRefreshNanos {
            requestTiming()
        }
    }

    /// The ring's room when it is worth writing (at least `topUpFrames`), else 0: between
    /// refills the sink thread sleeps instead of adding a trickle after each server request.
    func stagingRoomWorthWriting() -> Int {
        let room = stagingFrames - pendingFrames
        return room >= topUpFrames ? room : 0
    }
}
