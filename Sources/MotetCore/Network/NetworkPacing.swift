import MotetSystem

/// How long the network thread of a stream at the live edge naps between rounds of reads, leaving
/// what arrives meanwhile in the socket, so that it, the decoder and the sink wake about once a
/// second, not once per page (`NetworkStream.pace`). Pure; times are `MonotonicClock` ns.
enum NetworkPacing {
    /// A nap is at most this long (the socket holds what arrives meanwhile).
    static let longestNapNanos: Int64 = 1_000_000_000
    /// Shorter naps are not worth a wake-up: the thread goes on reading as the pages come.
    static let shortestNapNanos: Int64 = 200_000_000
    /// What the listener keeps ahead, at least, while the network thread naps.
    static let napMarginNanos: Int64 = 1_000_000_000

    /// The nap at `now`, when the listener's decoded audio runs out at `runsOutAt` and `buffered`
    /// bytes of a stream at `bitsPerSecond` wait in the buffer: half of what is ahead beyond
    /// `napMarginNanos`, at most `longestNapNanos`; nil when shorter than `shortestNapNanos`.
    static func nap(now: Int64, runsOutAt: Int64, buffered: Int, bitsPerSecond: Int) -> Int64? {
        let inBuffer = Int64(buffered) * 8_000_000_000 / Int64(max(8000, bitsPerSecond))
        let nap = min(longestNapNanos, (runsOutAt - now + inBuffer - napMarginNanos) / 2)
        return nap >= shortestNapNanos ? nap : nil
    }

    /// Whether bytes just written wake the reader at once. Not while the listener has more than
    /// `napMarginNanos` of audio ahead: then the reader is woken at the end of the round of reads
    /// (libcurl hands a round over in several pieces, each a wake-up of the decoder otherwise).
    /// At once when the stream is dry (the pre-buffer is being filled) or nearly out.
    static func wakesReader(now: Int64, runsOutAt: Int64, dry: Bool) -> Bool {
        dry || runsOutAt - now <= napMarginNanos
    }

    /// How long a reader with audio ahead waits for bytes: until half of `napMarginNanos` before
    /// that audio runs out, so that bytes owed to it (`wakesReader`) are taken in time even if the
    /// round's end never comes; then to the end of the audio, when it is a stall.
    static func readerDeadline(now: Int64, runsOutAt: Int64) -> Int64 {
        let early = runsOutAt - napMarginNanos / 2
        return early > now ? early : runsOutAt
    }
}
