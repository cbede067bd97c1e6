import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// `ResamplingDecoder` (`--output-rate`) over real Ogg Vorbis files: how many frames come out,
/// the times it gives, seeking, what the sound stays, and the files it leaves alone.
@Suite struct ResamplingDecoderTests {
    /// One output frame at 48 kHz, in microseconds (rounded up).
    static let oneFrameMicros: Int64 = 21

    @Test(arguments: [4096, 37])
    func aFileGivesExactlyTheRulesFramesAndSaysSo(chunk: Int) throws {
        let dir = try Scratch()
        let path = dir.file("a.ogg")
        try Fixtures.oggVorbis(path, seconds: 1.2345, synth: ["sine", "200-2000"])
        let frames = try #require(try VorbisDecoder(path: path).totalFrames)
        #expect(frames == 54441)
        let expected = Resampler.outputFrames(forInput: frames, from: 44100, to: 48000)

        let decoder = try ResamplingDecoder(VorbisDecoder(path: path), outputRate: 48000)
        #expect(decoder.format.sampleRate == 48000 && decoder.format.channels == 2)
        #expect(decoder.totalFrames == expected)
        #expect(decoder.positionMicros == 0)
        let decoded = DecodedFile.read(decoder, chunk: chunk)
        #expect(decoded.failure == nil && decoded.holes.isEmpty)
        #expect(decoded.links.count == 1)
        #expect(Int64(decoded.frames) == expected, "\(decoded.frames) frames, the rule says \(expected)")
        let duration = try #require(decoder.durationMicros)
        #expect(abs(decoded.finalPosition - duration) <= Self.oneFrameMicros, "ends at \(decoded.finalPosition) µs of \(duration)")
        // After the end, the end again.
        let one = UnsafeMutablePointer<Float>.allocate(capacity: 2)
        defer { one.deallocate() }
        guard case .endOfStream = decoder.read(into: one, maxFrames: 1) else {
            Issue.record("a read after the end gave frames")
            return
        }
    }

    @Test func downsamplingCountsTheSameWay() throws {
        let dir = try Scratch()
        let path = dir.file("b.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.7, rate: 48000, channels: 1, synth: ["sine", "300-900"])
        let frames = try #require(try VorbisDecoder(path: path).totalFrames)
        let decoder = try ResamplingDecoder(VorbisDecoder(path: path), outputRate: 44100)
        let expected = Resampler.outputFrames(forInput: frames, from: 48000, to: 44100)
        #expect(decoder.totalFrames == expected)
        #expect(Int64(DecodedFile.read(decoder, chunk: 1000).frames) == expected)
    }

    @Test func aSeekToTheMiddleLeavesTheRestOfTheFrames() throws {
        let dir = try Scratch()
        let path = dir.file("c.ogg")
        try Fixtures.oggVorbis(path, seconds: 2, synth: ["sine", "200-2000"])
        let decoder = try ResamplingDecoder(VorbisDecoder(path: path), outputRate: 48000)
        let total = try #require(decoder.totalFrames)
        #expect(total == 96000)
        // Read a little first: the seek must drop what the resampler holds.
        let some = UnsafeMutablePointer<Float>.allocate(capacity: 1000 * 2)
        defer { some.deallocate() }
        _ = decoder.read(into: some, maxFrames: 1000)
        try decoder.seek(toMicros: 1_000_000)
        #expect(abs(decoder.positionMicros - 1_000_000) <= Self.oneFrameMicros)
        let rest = DecodedFile.read(decoder)
        #expect(abs(rest.frames - 48000) <= 3, "\(rest.frames) frames after the middle")
        #expect(abs(rest.finalPosition - 2_000_000) <= 3 * Self.oneFrameMicros, "ends at \(rest.finalPosition) µs")
        // And back to the start: the whole file again.
        try decoder.seek(toMicros: 0)
        #expect(decoder.positionMicros == 0)
        #expect(Int64(DecodedFile.read(decoder).frames) == total)
    }

    @Test func aThousandHertzSineStaysAThousandHertz() throws {
        let dir = try Scratch()
        let path = dir.file("sine.ogg")
        try Fixtures.oggVorbis(path, seconds: 1, channels: 1, synth: ["sine", "1000"], quality: 6)
        let samples = DecodedFile.read(try ResamplingDecoder(VorbisDecoder(path: path), outputRate: 48000)).allSamples
        #expect(samples.count == 48000)
        // 0.8 s away from the edges: 800 periods, 1600 zero crossings.
        let middle = Array(samples[4800..<43200])
        var crossings = 0
        for i in 1..<middle.count where (middle[i - 1] < 0) != (middle[i] < 0) { crossings += 1 }
        #expect(abs(crossings - 1600) <= 2, "\(crossings) zero crossings in 0.8 s")
        // In time too: the ideal 48 kHz sine at sox's level (vol 0.5), within the codec's error.
        let ideal = (0..<48000).map { 0.5 * Float(sin(2 * Double.pi * 1000 * Double($0) / 48000)) }
        let worst = (4800..<43200).map { abs(samples[$0] - ideal[$0]) }.max() ?? 1
        #expect(worst < 0.02, "off the ideal sine by \(worst)")
    }

    @Test func aFileThatHasTheRateIsNotWrapped() throws {
        let dir = try Scratch()
        let path = dir.file("48k.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.3, rate: 48000)
        let decoder = try OggDecoding.open(path: path)
        #expect(try ResamplingDecoder.wrapping(decoder, outputRate: 48000) === decoder)
        #expect(try ResamplingDecoder.wrapping(decoder, outputRate: nil) === decoder)
        #expect(try ResamplingDecoder.wrapping(decoder, outputRate: 44100) is ResamplingDecoder)
    }

    @Test func aChainResamplesEachLinkAndPassesOneThatHasTheRate() throws {
        let dir = try Scratch()
        let first = dir.file("first.ogg")
        let second = dir.file("second.ogg")
        try Fixtures.oggVorbis(first, seconds: 0.5, synth: ["sine", "440"], tags: .init(title: "First"), serial: 1)
        try Fixtures.oggVorbis(second, seconds: 0.25, rate: 48000, synth: ["sine", "300-900"], tags: .init(title: "Second"), serial: 2)
        let chain = dir.file("chain.ogg")
        try Fixtures.chain([first, second], into: chain)
        let secondAlone = DecodedFile.read(try VorbisDecoder(path: second)).allSamples

        let decoder = try ResamplingDecoder(VorbisDecoder(path: chain), outputRate: 48000)
        #expect(decoder.linkCount == 2)
        #expect(decoder.totalFrames == nil)
        let decoded = DecodedFile.read(decoder)
        #expect(decoded.links.count == 2)
        #expect(decoded.links.map(\.metadata.title) == ["First", "Second"])
        #expect(decoded.links.map(\.format.sampleRate) == [48000, 48000])
        #expect(decoded.links[0].frames == 24000)
        // The 48 kHz link passes as it is.
        #expect(decoded.links[1].samples == secondAlone)
    }
}
