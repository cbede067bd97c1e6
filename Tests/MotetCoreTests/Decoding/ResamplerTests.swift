import Foundation
import MotetDecoding
import Testing

/// `Resampler` (libsoxr, `--output-rate`): how many frames come out, what they sound like, and
/// that the way the input is cut into calls changes neither.
@Suite struct ResamplerTests {
    static let ratePairs = [(44100, 48000), (48000, 44100), (22050, 48000), (32000, 44100)]

    /// Everything `input` (interleaved) resamples to, fed `chunk` frames a call into an output
    /// block of `capacity` frames, then flushed.
    static func resample(
        _ input: [Float], with resampler: Resampler, chunk: Int, capacity: Int = 8192
    ) -> [Float] {
        let channels = resampler.channels
        let frames = input.count / channels
        var output: [Float] = []
        let block = UnsafeMutablePointer<Float>.allocate(capacity: capacity * channels)
        defer { block.deallocate() }
        input.withUnsafeBufferPointer { samples in
            var fed = 0
            while fed < frames {
                let offer = min(chunk, frames - fed)
                let (consumed, produced) = resampler.process(
                    samples.baseAddress! + fed * channels, frames: offer, into: block, capacity: capacity)
                output.append(contentsOf: UnsafeBufferPointer(start: block, count: produced * channels))
                fed += consumed
                precondition(consumed > 0 || produced > 0, "no progress")
            }
        }
        while true {
            let (_, produced) = resampler.process(nil, frames: 0, into: block, capacity: capacity)
            if produced == 0 { break }
            output.append(contentsOf: UnsafeBufferPointer(start: block, count: produced * channels))
        }
        return output
    }

    /// `frames` of a sine at `hertz`, amplitude `amplitude`, sampled at `rate`.
    static func sine(frames: Int, hertz: Double, rate: Int, amplitude: Float = 0.5) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * hertz * Double($0) / Double(rate))) }
    }

    /// One channel of interleaved samples.
    static func channel(_ samples: [Float], _ index: Int, of channels: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }

    @Test func theRuleIsRoundToNearestHalvesUp() {
        // Where libsoxr alone rounds a half down (48000 -> 44100: 240 x 0.91875 = 220.5), the rule
        // does not.
        #expect(Resampler.outputFrames(forInput: 240, from: 48000, to: 44100) == 221)
        #expect(Resampler.outputFrames(forInput: 44100, from: 44100, to: 48000) == 48000)
        #expect(Resampler.outputFrames(forInput: 1, from: 22050, to: 48000) == 2)
        #expect(Resampler.outputFrames(forInput: 2, from: 32000, to: 44100) == 3)
        #expect(Resampler.outputFrames(forInput: 0, from: 48000, to: 44100) == 0)
        // Ten hours at 384 kHz from 8 kHz: no overflow on the way.
        #expect(Resampler.outputFrames(forInput: 288_000_000, from: 8000, to: 384_000) == 13_824_000_000)
        for (from, to) in Self.ratePairs {
            for input in [0, 1, 239, 240, 241, 99_999, 1_234_567] as [Int64] {
                let exact = (input * Int64(to) + Int64(from / 2)) / Int64(from)
                #expect(Resampler.outputFrames(forInput: input, from: from, to: to) == exact)
            }
        }
    }

    @Test(arguments: [(44100, 48000), (48000, 44100), (22050, 48000), (32000, 44100)])
    func theTotalIsTheRulesWhateverTheChunks(from: Int, to: Int) throws {
        for frames in [0, 1, 2, 100, 240, 480, 1000, 4096, 44100, 48_001] {
            let input = Self.sine(frames: frames, hertz: 440, rate: from)
            let expected = Resampler.outputFrames(forInput: Int64(frames), from: from, to: to)
            var outputs: [[Float]] = []
            for chunk in [1, 37, 4096] {
                let output = Self.resample(input, with: try Resampler(from: from, to: to, channels: 1), chunk: chunk)
                #expect(Int64(output.count) == expected, "\(frames) frames in \(chunk)-frame chunks, \(from) -> \(to)")
                outputs.append(output)
            }
            // The samples do not depend on the chunks either.
            for output in outputs.dropFirst() where output.count == outputs[0].count {
                let worst = zip(output, outputs[0]).map { abs($0 - $1) }.max() ?? 0
                #expect(worst < 1e-5, "\(frames) frames, \(from) -> \(to): \(worst)")
            }
        }
    }

    @Test func aSmallOutputBlockTakesTheInputInPartsAndLosesNothing() throws {
        let resampler = try Resampler(from: 22050, to: 48000, channels: 2)
        let input = [Float](repeating: 0.25, count: 10_000 * 2)
        let output = Self.resample(input, with: resampler, chunk: 4096, capacity: 100)
        #expect(Int64(output.count / 2) == Resampler.outputFrames(forInput: 10_000, from: 22050, to: 48000))
    }

    @Test func aThousandHertzSineStaysAThousandHertzAtItsLevel() throws {
        let input = Self.sine(frames: 44100, hertz: 1000, rate: 44100)
        let output = Self.resample(input, with: try Resampler(from: 44100, to: 48000, channels: 1), chunk: 1024)
        #expect(output.count == 48000)
        // 0.1 s from each edge: 38,400 frames, 800 whole periods of 48 frames.
        let middle = Array(output[4800..<43200])
        var crossings = 0
        for i in 1..<middle.count where (middle[i - 1] < 0) != (middle[i] < 0) { crossings += 1 }
        #expect(abs(crossings - 1600) <= 1, "\(crossings) zero crossings in 0.8 s")
        // The level: RMS x sqrt 2 over whole periods is the amplitude, 0.5.
        let rms = sqrt(middle.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(middle.count))
        let decibels = 20 * log10(rms * 2.squareRoot() / 0.5)
        #expect(abs(decibels) < 0.1, "\(decibels) dB")
        // And in time: libsoxr takes its filter's delay away, so the output is the same sine.
        let ideal = Self.sine(frames: 48000, hertz: 1000, rate: 48000)
        let worst = (4800..<43200).map { abs(output[$0] - ideal[$0]) }.max() ?? 1
        #expect(worst < 1e-3, "off the ideal sine by \(worst)")
    }

    @Test func stereoChannelsStayApart() throws {
        let left = Self.sine(frames: 22050, hertz: 1000, rate: 44100)
        var input = [Float](repeating: 0, count: 22050 * 2)
        for i in 0..<22050 { input[2 * i] = left[i] }
        let output = Self.resample(input, with: try Resampler(from: 44100, to: 48000, channels: 2), chunk: 4096)
        #expect(output.count == 24000 * 2)
        let right = Self.channel(output, 1, of: 2)
        #expect((right.map { abs($0) }.max() ?? 1) < 1e-6, "the silent channel is not silent")
        let resampledLeft = Self.channel(output, 0, of: 2)
        #expect((resampledLeft[2400..<21600].map { abs($0) }.max() ?? 0) > 0.49)
    }

    @Test func clearMakesItANewResampler() throws {
        let first = Self.sine(frames: 30_000, hertz: 300, rate: 48000)
        let second = Self.sine(frames: 20_000, hertz: 1000, rate: 48000, amplitude: 0.8)
        let fresh = Self.resample(second, with: try Resampler(from: 48000, to: 44100, channels: 1), chunk: 4096)

        // After a whole signal, flushed.
        let reused = try Resampler(from: 48000, to: 44100, channels: 1)
        _ = Self.resample(first, with: reused, chunk: 4096)
        reused.clear()
        #expect(Self.resample(second, with: reused, chunk: 4096) == fresh)

        // In the middle of one (a seek).
        let seeking = try Resampler(from: 48000, to: 44100, channels: 1)
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
        defer { block.deallocate() }
        first.withUnsafeBufferPointer { samples in
            _ = seeking.process(samples.baseAddress!, frames: 4096, into: block, capacity: 8192)
        }
        seeking.clear()
        #expect(Self.resample(second, with: seeking, chunk: 4096) == fresh)
    }

    @Test func badArgumentsAreAnErrorValue() {
        #expect(throws: ResamplerError.self) { try Resampler(from: 0, to: 48000, channels: 2) }
        #expect(throws: ResamplerError.self) { try Resampler(from: 44100, to: 48000, channels: 0) }
        do {
            _ = try Resampler(from: 44100, to: -1, channels: 1)
            Issue.record("made a resampler to -1 Hz")
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}
