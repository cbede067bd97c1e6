import Testing

@testable import MotetPlayback

/// A stream's real bit rate, as the decoder measures it (`BitrateMeter`).
@Suite struct BitrateMeterTests {
    @Test func theRateIsTheBytesTakenPerSecondOfAudioOnceAWindowIsFull() {
        var meter = BitrateMeter(from: 1000)
        var reads = 0
        // 3.9 s of 44.1 kHz audio: no figure yet, and the stream's offset is not asked for.
        for _ in 0..<39 { #expect(meter.decoded(4410, rate: 44100, offset: { reads += 1; return 0 }()) == nil) }
        #expect(reads == 0)
        // 4 s for 64,000 bytes: 128 kb/s.
        #expect(meter.decoded(4410, rate: 44100, offset: 65_000) == 128_000)
        // The next window starts there: 4 s more for 32,000 bytes.
        for _ in 0..<39 { _ = meter.decoded(4410, rate: 44100, offset: 0) }
        #expect(meter.decoded(4410, rate: 44100, offset: 97_000) == 64_000)
    }

    @Test func aStreamThatTookNothingHasNoRate() {
        var meter = BitrateMeter(from: 500)
        #expect(meter.decoded(44100 * 4, rate: 44100, offset: 500) == nil)
        #expect(meter.decoded(44100 * 4, rate: 0, offset: 900) == nil)
    }
}
