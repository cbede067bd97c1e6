import MotetSystem

/// How long the network thread of a stream at the live edge naps between rounds of reads, leaving
/// what arrives meanwhile in the socket, so that it, the decoder and the sink wake about once a
/// second, not once per page (`NetworkStream.pace`). Pure: the caller gives the time.
enum NetworkPacing {
    /// A nap is at most this long (the socket holds what arrives meanwhile).
    static let longestNap: Duration = .seconds(1)
    /// Shorter naps are not worth a wake-up: the thread goes on reading as the pages come.
    static let shortestNap: Duration = .milliseconds(200)
    /// What the listener keeps ahead, at least, while the network thread naps.
    static let napMargin: Duration = .seconds(1)

    /// The nap at `now`, when the listener's decoded audio runs out at `runsOutAt` and `buffered`
    /// bytes of a stream at `bitsPerSecond` wait in the buffer: half of what is ahead beyond
    /// `napMargin`, at most `longestNap`; nil when shorter than `shortestNap`.
    static func nap(now: MonotonicInstant, runsOutAt: MonotonicInstant, buffered: Int, bitsPerSecond: Int) -> Duration? {
        let inBuffer = Duration.seconds(Double(buffered) * 8 / Double(max(8000, bitsPerSecond)))
        let nap = min(longestNap, (runsOutAt - now + inBuffer - napMargin) / 2)
        return nap >= shortestNap ? nap : nil
    }

    /// Whether bytes just written wake the reader at once. Not while the listener has more than
    /// `napMargin` of audio ahead: then the reader is woken at the end of the round of reads
    /// (libcurl hands a round over in several pieces, each a wake-up of the decoder otherwise).
    /// At once when the stream is dry (the pre-buffer is being filled), nearly out, or nothing is
    /// decoded yet (`runsOutAt` nil).
    static func wakesReader(now: MonotonicInstant, runsOutAt: MonotonicInstant?, dry: Bool) -> Bool {
        guard let runsOutAt else { return true }
        return dry || runsOutAt - now <= napMargin
    }

    /// How long a reader with audio ahead waits for bytes: until half of `napMargin` before that
    /// audio runs out, so that bytes owed to it (`wakesReader`) are taken in time even if the
    /// round's end never comes; then to the end of the audio, when it is a stall.
    static func readerDeadline(now: MonotonicInstant, runsOutAt: MonotonicInstant) -> MonotonicInstant {
        let early = runsOutAt - napMargin / 2
        return early > now ? early : runsOutAt
    }
}
