import MotetOutput
import Testing

@Suite struct SampleConversionTests {
    @Test func fullScaleClampsAsOvReadDoes() {
        #expect(SampleConversion.int16(1.0) == 32767)
        #expect(SampleConversion.int16(-1.0) == -32768)
        #expect(SampleConversion.int16(2.0) == 32767)
        #expect(SampleConversion.int16(-2.0) == -32768)
        #expect(SampleConversion.int16(.infinity) == 32767)
        #expect(SampleConversion.int16(-.infinity) == -32768)
    }

    @Test func roundsToNearestWithTiesToEvenLikeLrintf() {
        #expect(SampleConversion.int16(0.5) == 16384)
        #expect(SampleConversion.int16(1.5 / 32768) == 2)
        #expect(SampleConversion.int16(2.5 / 32768) == 2)
        #expect(SampleConversion.int16(-1.5 / 32768) == -2)
        #expect(SampleConversion.int16(0.4 / 32768) == 0)
        #expect(SampleConversion.int16(-0.0) == 0)
    }

    @Test func everySixteenBitValueSurvivesTheRoundTrip() {
        for v in Int16.min...Int16.max {
            if SampleConversion.int16(Float(v) / 32768) != v {
                Issue.record("\(v) did not survive")
                return
            }
        }
    }

    @Test func notANumberDoesNotCrash() {
        #expect(SampleConversion.int16(.nan) == -32768)
    }
}

/// The block conversion (eight samples at a time in vector registers) gives exactly what the
/// per-sample one gives, on every case it has to get right: ties, the clamps, NaN, infinities,
/// subnormals, and a sweep of ordinary values; also for counts that leave a tail.
@Suite struct BlockSampleConversionTests {
    static let edges: [Float] = [
        0, -0.0, 1, -1, 2, -2, .infinity, -.infinity, .nan, -.nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.5 / 32768, 1.5 / 32768, 2.5 / 32768, -0.5 / 32768,
        -1.5 / 32768, -2.5 / 32768, 32766.5 / 32768, 32767.5 / 32768, -32767.5 / 32768, -32768.5 / 32768,
        32767.49 / 32768, 0.99999994, -0.99999994, 1.0000001, 3e9, -3e9,
    ]

    private func block(_ input: [Float]) -> [Int16] {
        var out = [Int16](repeating: 0x5A5A, count: input.count)
        input.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in SampleConversion.int16(from: i.baseAddress!, to: o.baseAddress!, count: i.count) }
        }
        return out
    }

    @Test func theEdgesConvertAsOneSampleAtATime() {
        let input = Self.edges + Self.edges.reversed() + Self.edges.map { $0 * 0.999 }
        #expect(block(input) == input.map { SampleConversion.int16($0).littleEndian })
    }

    @Test func everyTieAndEveryValueOfASweepConvertsAsOneSampleAtATime() {
        // Every half step of the 16-bit range (the ties), and values between them.
        var input: [Float] = []
        for k in -65540...65540 { input.append(Float(k) / 65536) }
        for k in 0..<100_000 { input.append(Float(k) * 0.000_031_1 - 1.55) }
        #expect(block(input) == input.map { SampleConversion.int16($0).littleEndian })
    }

    @Test func aCountThatIsNotAMultipleOfEightLeavesTheRestUntouched() {
        for count in 0..<20 {
            let input = (0..<count).map { Float($0) / 20 - 0.5 }
            var out = [Int16](repeating: 0x5A5A, count: count + 3)
            input.withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { o in
                    SampleConversion.int16(from: i.baseAddress ?? UnsafePointer(bitPattern: 8)!, to: o.baseAddress!, count: count)
                }
            }
            #expect(Array(out.prefix(count)) == input.map { SampleConversion.int16($0) })
            #expect(Array(out.suffix(3)) == [0x5A5A, 0x5A5A, 0x5A5A])
        }
    }
}
