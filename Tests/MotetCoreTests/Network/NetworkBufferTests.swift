import MotetSystem
import Testing

@testable import MotetNetwork

/// The monotonic moment `seconds` after the clock's origin (the pure pieces take the time given).
private func at(_ seconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: 0) + .seconds(seconds) }

/// The network thread's pieces that are pure logic: the bounded byte ring between libcurl and the
/// decoder, and the back-off of a lost stream.
@Suite struct NetworkBufferTests {
    /// Puts and takes in uneven pieces around the ring's end many times: the bytes come out in
    /// order, none lost or doubled, and it never holds more than its capacity.
    @Test func theRingGivesBackEveryByteInOrderAcrossItsEnd() {
        var ring = ByteRing(capacity: 10)
        var next: UInt8 = 0
        var expected: UInt8 = 0
        var out = [UInt8](repeating: 0, count: 16)
        for round in 0..<200 {
            let piece = (0..<(round % 7 + 1)).map { _ -> UInt8 in
                defer { next &+= 1 }
                return next
            }
            let put = piece.withUnsafeBytes { ring.put($0) }
            #expect(put == min(piece.count, 10 - (ring.count - put)))
            next &-= UInt8(piece.count - put)  // what did not fit is offered again later
            #expect(ring.count <= 10 && ring.room == 10 - ring.count)
            let taken = out.withUnsafeMutableBytes { ring.take(into: $0.baseAddress!, round % 5 + 1) }
            for byte in out.prefix(taken) {
                #expect(byte == expected)
                expected &+= 1
            }
        }
    }

    @Test func dropForgetsTheOldestAndRemoveAllEmpties() {
        var ring = ByteRing(capacity: 8)
        _ = [UInt8](0..<6).withUnsafeBytes { ring.put($0) }
        ring.drop(4)
        _ = [UInt8](6..<12).withUnsafeBytes { ring.put($0) }
        var out = [UInt8](repeating: 0, count: 8)
        let n = out.withUnsafeMutableBytes { ring.take(into: $0.baseAddress!, 100) }
        #expect(Array(out.prefix(n)) == [4, 5, 6, 7, 8, 9, 10, 11])
        _ = [UInt8](0..<3).withUnsafeBytes { ring.put($0) }
        ring.removeAll()
        #expect(ring.count == 0 && ring.room == 8)
    }

    /// 1, 2, 4 … s between attempts, the loss said once, given up when the limit has passed
    /// since the loss (the last wait is cut to the limit), and started over once it flows again.
    @Test func aLostStreamBacksOffAndGivesUpAtItsLimit() {
        var r = Reconnection(limit: .seconds(10))
        let reset = NetworkError.transfer("connection reset")
        #expect(r.lost(reset, now: at(100)) == .retry(after: .seconds(1), first: true))
        #expect(r.lost(.timedOut, now: at(101)) == .retry(after: .seconds(2), first: false))
        #expect(r.lost(.timedOut, now: at(103)) == .retry(after: .seconds(4), first: false))
        #expect(r.lost(.timedOut, now: at(107)) == .retry(after: .seconds(3), first: false))
        #expect(r.lost(.timedOut, now: at(110)) == .giveUp(.gaveUp(after: .seconds(10), cause: reset)))
        #expect(r.recovered() && !r.recovered())
        #expect(r.lost(.timedOut, now: at(200)) == .retry(after: .seconds(1), first: true))
    }

    /// Headers, then a timeout or a close with no byte of audio: said as such, not retried; once
    /// any audio came, a loss is a loss (retried).
    @Test func aServerThatNeverSentAudioIsNotRetried() {
        var r = Reconnection(limit: .seconds(60))
        #expect(r.neverSent(.timedOut, closed: false, timeout: .seconds(15)) == nil, "no answer yet: a connection problem")
        r.accepted()
        #expect(r.neverSent(.timedOut, closed: false, timeout: .seconds(15)) == .noAudio(after: .seconds(15)))
        #expect(r.neverSent(.transfer("the server closed the connection"), closed: true, timeout: .seconds(15)) == .noAudio(after: nil))
        #expect(r.neverSent(.connectionFailed("connection refused"), closed: false, timeout: .seconds(15)) == nil)
        r.arrived()
        #expect(r.neverSent(.timedOut, closed: false, timeout: .seconds(15)) == nil)
    }

    /// The buffering line: only after a wait of 3 s (10 s while the need is unknown), only when
    /// bytes come slower than the stream needs (or the need is unknown), at most once a minute — except that the first line that
    /// knows the need is said.
    @Test func aSlowConnectionIsSaidWithItsSpeedAndTheStreamsNeed() {
        var b = BufferingReport()
        // 1000 bytes a second, up to each time asked.
        var fed: Int64 = 0
        func line(_ t: Int64, _ need: Int?) -> String? {
            while fed <= t {
                b.arrived(1000, at: at(fed))
                fed += 1
            }
            return b.waiting(at: at(t), needsBitsPerSecond: need, prebuffer: .milliseconds(1500))?.line(url: "http://radio/x.ogg")
        }
        #expect(line(10, nil) == nil)  // the wait starts
        #expect(line(19, nil) == nil)  // 9 s: not yet, while the need is unknown
        #expect(line(20, nil) == "http://radio/x.ogg: buffering (the connection gives 1.0 kB/s; waiting for 1.5 s of audio)")
        #expect(line(21, nil) == nil)
        #expect(line(22, 128_000) == "http://radio/x.ogg: buffering (the connection gives 1.0 kB/s, the stream needs 16.0 kB/s) — "
            + "the connection is too slow for this stream; pick a lower bit rate if the station offers one")
        #expect(line(23, 128_000) == nil)
        b.flowing()
        #expect(line(30, 4000) == nil)
        #expect(line(34, 4000) == nil, "fast enough for a 4 kbit/s (0.5 kB/s) stream")
        b.flowing()
        #expect(line(50, 128_000) == nil)
        #expect(line(54, 128_000) == nil, "within a minute of the last line")
        b.flowing()
        #expect(line(85, 128_000) == nil)
        #expect(line(88, 128_000) != nil, "over a minute later")
        // A new connection: neither the time it was away nor the speed before it count.
        b.flowing()
        #expect(line(150, 128_000) == nil)
        b.connected(at: at(160))
        fed = 160
        #expect(line(162, 128_000) == nil, "waited 2 s since the new connection")
        #expect(line(163, 128_000) != nil, "waited 3 s since the new connection")
        #expect(ArrivalRate.kilobytes(perSecond: 16_049) == "16.0 kB/s")
    }

    /// At the live edge a round of reads comes in several pieces; a reader with seconds ahead is
    /// woken once for the round (the network thread's `pace`), one that is dry or nearly out at
    /// once. A reader waiting with audio ahead looks again half a margin before it runs out, in
    /// case the round's end does not come, and at the end of its audio when that is closer.
    @Test func aReaderWithSecondsAheadIsWokenOncePerRoundAndNeverTooLate() {
        let now = at(100)
        #expect(!NetworkPacing.wakesReader(now: now, runsOutAt: now + .seconds(3), dry: false))
        #expect(NetworkPacing.wakesReader(now: now, runsOutAt: now + .seconds(3), dry: true))
        #expect(NetworkPacing.wakesReader(now: now, runsOutAt: now + NetworkPacing.napMargin, dry: false))
        #expect(NetworkPacing.wakesReader(now: now, runsOutAt: nil, dry: false), "nothing decoded yet: at once")
        #expect(NetworkPacing.readerDeadline(now: now, runsOutAt: now + .seconds(3)) == now + .seconds(3) - NetworkPacing.napMargin / 2)
        #expect(NetworkPacing.readerDeadline(now: now, runsOutAt: now + .milliseconds(250)) == now + .milliseconds(250))
    }
}

/// The news of a stream, typed, and its one rendering.
@Suite struct NetworkNoticeTests {
    @Test func eachNoticeHasItsLine() {
        let url = "http://me:pw@radio.example/live.ogg"
        #expect(NetworkNotice.lost(.timedOut, reconnectingFor: .seconds(3)).line(url: url)
            == "http://radio.example/live.ogg: the stream was lost (nothing arrived for too long); reconnecting for up to 3 s")
        #expect(NetworkNotice.back.line(url: url) == "http://radio.example/live.ogg: the stream is back; playing on")
        #expect(NetworkError.interrupted.line(url: url)
            == "http://radio.example/live.ogg: the transfer failed (interrupted) — check the address and the network connection")
    }
}
