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
