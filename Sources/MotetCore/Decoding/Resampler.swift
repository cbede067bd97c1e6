import CSoxr

/// Why a ``Resampler`` could not be made: libsoxr's own message (its `soxr_error_t`), or ours for
/// arguments it is never given (a rate or a channel count below 1), kept as a value until the edge
/// that shows it.
public struct ResamplerError: Error, Sendable, Equatable {
    /// What went wrong, in libsoxr's words (e.g. "I/O ratio out-of-range").
    public var message: String

    public init(message: String) { self.message = message }
}

/// One libsoxr resampler (`soxr_t`, high quality, interleaved 32-bit float in and out), from one
/// rate to another, for one channel count: `--output-rate` (#22).
///
/// **How many frames come out.** Fed `n` frames and flushed (``process(_:frames:into:capacity:)``
/// with `nil` until it produces nothing), a resampler hands out exactly
/// ``outputFrames(forInput:from:to:)`` frames, `(n × to + from / 2) / from` (round to nearest,
/// halves up), however the input was cut into calls. libsoxr 0.1.3 on its own hands out
/// `Int64(Double(n) / (Double(from) / Double(to)) + 0.5)` (`_soxr_flush` in its `cr.c`): the same
/// number except where `n × to / from` is exactly a half, which the double quotient can land
/// just under (48000 → 44100 Hz, `n` = 240: 220.5, libsoxr gives 220, the rule 221; 9,208 such
/// `n` below 2,000,000 for that pair, none for 44100 → 48000, 22050 → 48000 or 32000 → 44100).
/// So the tail is made exact here: when libsoxr has nothing left before the rule's count, the
/// missing frames (at most one in practice) are silence; when it has more, they are left unread.
///
/// **Delay.** libsoxr takes its filter's delay away itself: the first frame out is the first
/// frame in, resampled. Output lags input inside a call, and the end of the input comes out
/// only with the flush.
///
/// **Allocation.** ``process(_:frames:into:capacity:)`` allocates nothing of its own, but libsoxr
/// 0.1.3 does some: its filters in `init` (24 to 28 allocations) and again in ``clear()``
/// (`soxr_clear` rebuilds the resampler: 23 to 27), and its FIFOs grow with `realloc` while they
/// fill, until they hold the largest block they are given. Measured over 10 minutes of stereo
/// (44100 <-> 48000, 22050 -> 48000, 32000 -> 44100, 48000 -> 96000), with blocks of 256, 1024 or
/// 4096 frames and an output `capacity` above a block's resampled length: 4 to 14 reallocations,
/// the last by the 19th call, then none; 0 to 8 more at the flush. When `capacity` is what limits
/// a call (4096 frames in, 4096 out, 44100 -> 48000), a FIFO still grows now and then, up to
/// thousands of calls in (16 reallocations in all). So: give an output block larger than the
/// input block resampled (``outputFrames(forInput:from:to:)`` of it, plus some), and expect
/// allocation after `init`, ``clear()`` and at the end of a signal, never in between once warm.
///
/// Not thread-safe: use it from one thread at a time (it may be handed from one thread to another,
/// hence `@unchecked Sendable`).
public final class Resampler: @unchecked Sendable {
    /// The input's rate, in Hz.
    public let inputRate: Int
    /// The output's rate, in Hz.
    public let outputRate: Int
    /// Interleaved channels, the same in and out.
    public let channels: Int

    private let soxr: soxr_t
    /// Frames taken since the start (or the last ``clear()``).
    private var framesIn: Int64 = 0
    /// Frames handed out since the start (or the last ``clear()``).
    private var framesOut: Int64 = 0
    /// The end of the input was signalled: only flushing (`nil` input) until ``clear()``.
    private var ended = false

    /// A resampler from `from` Hz to `to` Hz for `channels` interleaved channels.
    public init(from: Int, to: Int, channels: Int) throws(ResamplerError) {
        guard from > 0, to > 0, channels > 0, channels <= Int(UInt16.max) else {
            throw ResamplerError(message: "cannot resample \(channels) channels from \(from) Hz to \(to) Hz")
        }
        var error: soxr_error_t?
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let made = soxr_create(Double(from), Double(to), UInt32(channels), &error, &io, &quality, nil)
        guard let made, error == nil else {
            if let made { soxr_delete(made) }
            throw ResamplerError(message: error.map { String(cString: $0) } ?? "libsoxr made no resampler")
        }
        soxr = made
        inputRate = from
        outputRate = to
        self.channels = channels
    }

    deinit { soxr_delete(soxr) }

    /// Resamples up to `frames` interleaved frames of `input` into `output`, which has room for
    /// `capacity` frames, and says how many frames it took and how many it wrote. It may take
    /// fewer than `frames` (at most what `capacity` has room for, resampled): offer the rest again.
    /// `input` nil means the input has ended: each call then writes what is left of the tail
    /// (flushed), and 0 frames once it is all out; after that, only ``clear()`` makes it take
    /// input again. Allocates nothing itself (see the type's note on libsoxr's FIFOs).
    public func process(
        _ input: UnsafePointer<Float>?, frames: Int, into output: UnsafeMutablePointer<Float>, capacity: Int
    ) -> (consumed: Int, produced: Int) {
        precondition(frames >= 0 && capacity >= 0, "negative frame count")
        guard let input else { return flush(into: output, capacity: capacity) }
        precondition(!ended, "Resampler.process: input after its end; clear() first")
        var consumed = 0
        var produced = 0
        // With a count of frames taken asked for, libsoxr takes at most what `capacity` has room
        // for (soxr_i_for_o), so its FIFOs stay bounded by the caller's blocks.
        _ = soxr_process(soxr, input, frames, &consumed, output, capacity, &produced)
        framesIn += Int64(consumed)
        framesOut += Int64(produced)
        return (consumed, produced)
    }

    /// Forgets the signal (a seek, a new track): the next input starts a fresh one, as in a new
    /// resampler. libsoxr rebuilds its filters here (it allocates).
    public func clear() {
        _ = soxr_clear(soxr)
        framesIn = 0
        framesOut = 0
        ended = false
    }

    /// The exact number of frames a resampler from `from` Hz to `to` Hz hands out for `input`
    /// frames once flushed: `(input × to + from / 2) / from`, round to nearest (halves up),
    /// without overflow for any count a track can have.
    public static func outputFrames(forInput input: Int64, from: Int, to: Int) -> Int64 {
        precondition(input >= 0 && from > 0 && to > 0)
        let from = Int64(from), to = Int64(to)
        // input = q × from + r, so input × to + from / 2 = q × to × from + (r × to + from / 2).
        let (q, r) = input.quotientAndRemainder(dividingBy: from)
        return q * to + (r * to + from / 2) / from
    }

    /// The tail: libsoxr's, cut or padded with silence to ``outputFrames(forInput:from:to:)``.
    private func flush(into output: UnsafeMutablePointer<Float>, capacity: Int) -> (consumed: Int, produced: Int) {
        ended = true
        let left = Self.outputFrames(forInput: framesIn, from: inputRate, to: outputRate) - framesOut
        let room = Int(min(Int64(capacity), max(left, 0)))
        guard room > 0 else { return (0, 0) }
        var produced = 0
        _ = soxr_process(soxr, nil, 0, nil, output, room, &produced)
        if produced == 0 {
            // libsoxr's total fell short of the rule (a half rounded down): silence makes it up.
            output.update(repeating: 0, count: room * channels)
            produced = room
        }
        framesOut += Int64(produced)
        return (0, produced)
    }
}
