import Testing

@testable import MotetPlayback

/// What the sink keeps of a stream for a cut's fade out (`WrittenHistory`): every sample once, in
/// ring coordinates and at 16 bits, across the storage's wrap; a region offered again is not
/// copied twice; a gap starts it over; a new segment forgets the old one's; an output that plays
/// all it is given keeps nothing.
@Suite struct WrittenHistoryTests {
    /// Samples that 16 bits hold exactly, different at each index.
    func ramp(_ from: Int, _ count: Int) -> [Float] { (from..<from + count).map { Float($0 % 65535 - 32767) / 32767 } }

    func kept(_ h: WrittenHistory, from index: Int, count: Int) -> [Float] {
        var out = [Float](repeating: -1, count: count)
        out.withUnsafeMutableBufferPointer { h.copy(from: index, count: count, into: $0.baseAddress!) }
        return out
    }

    @Test func keepsEverySampleOnceAcrossTheWrapAndForgetsWhatIsOlderThanItsCapacity() {
        var h = WrittenHistory()
        defer { h.deallocate() }
        h.enter(SegmentMarker(sampleIndex: 1000, segmentID: 7, sampleRate: 44100, channels: 2, gain: 1, isEnd: false, keepsHistory: true), toDevice: true)
        #expect(h.isOn && h.segmentID == 7)
        let chunk = 300_000
        var index = 1000
        for _ in 0..<3 {
            // A device that takes part of a region is offered the rest again, with what it took.
            ramp(index, chunk).withUnsafeBufferPointer { h.keep($0.baseAddress!, at: index, count: chunk) }
            ramp(index, chunk + 10).withUnsafeBufferPointer { h.keep($0.baseAddress!, at: index, count: chunk + 10) }
            index += chunk + 10
        }
        #expect(h.through == index)
        #expect(h.from == index - WrittenHistory.capacity)
        #expect(kept(h, from: h.from, count: WrittenHistory.capacity) == ramp(h.from, WrittenHistory.capacity))
    }

    @Test func aGapStartsOverAndANewSegmentForgetsTheOldOne() {
        var h = WrittenHistory()
        defer { h.deallocate() }
        h.enter(SegmentMarker(sampleIndex: 0, segmentID: 1, sampleRate: 44100, channels: 2, gain: 1, isEnd: false, keepsHistory: true), toDevice: true)
        ramp(0, 100).withUnsafeBufferPointer { h.keep($0.baseAddress!, at: 0, count: 100) }
        ramp(500, 100).withUnsafeBufferPointer { h.keep($0.baseAddress!, at: 500, count: 100) }
        #expect(h.from == 500 && h.through == 600)
        #expect(kept(h, from: 550, count: 50) == ramp(550, 50))
        h.enter(SegmentMarker(sampleIndex: 600, segmentID: 2, sampleRate: 44100, channels: 2, gain: 1, isEnd: false), toDevice: true)
        #expect(!h.isOn && !h.isStream && h.from == 600 && h.through == 600)
        h.enter(SegmentMarker(sampleIndex: 700, segmentID: 3, sampleRate: 44100, channels: 2, gain: 1, isEnd: false, keepsHistory: true), toDevice: false)
        #expect(h.isStream && !h.isOn)
    }
}
