import Testing

@testable import MotetNetwork

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
        var r = Reconnection(limitSeconds: 10)
        let reset = NetworkError.transfer("connection reset")
        #expect(r.lost(reset, now: 100) == .retry(afterSeconds: 1, first: true))
        #expect(r.lost(.timedOut, now: 101) == .retry(afterSeconds: 2, first: false))
        #expect(r.lost(.timedOut, now: 103) == .retry(afterSeconds: 4, first: false))
        #expect(r.lost(.timedOut, now: 107) == .retry(afterSeconds: 3, first: false))
        #expect(r.lost(.timedOut, now: 110) == .giveUp(.gaveUp(seconds: 10, reset.lossReason)))
        #expect(r.recovered() && !r.recovered())
        #expect(r.lost(.timedOut, now: 200) == .retry(afterSeconds: 1, first: true))
    }
}
