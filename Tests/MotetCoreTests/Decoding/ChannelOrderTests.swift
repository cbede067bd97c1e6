import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// Vorbis stores 3 to 8 channels in its own order (Vorbis I, 4.3.9); the decoder hands them out in
/// WAV / SMPTE order, so each channel of the source WAV comes back in the same position.
@Suite struct ChannelOrderTests {
    /// Source channel i is a sine of its own frequency; the LFE (WAV position 3 from 5.1 up) is low.
    static func frequencies(channels: Int) -> [Int] {
        (0..<channels).map { i in channels >= 6 && i == 3 ? 60 : 200 + 100 * i }
    }

    /// Estimated frequency of one channel of interleaved samples: half the zero crossings per second.
    static func frequency(_ samples: [Float], channel: Int, of channels: Int, rate: Int) -> Double {
        var crossings = 0
        var previous = samples[channel]
        var i = channel + channels
        while i < samples.count {
            if (previous < 0) != (samples[i] < 0) { crossings += 1 }
            previous = samples[i]
            i += channels
        }
        let seconds = Double(samples.count / channels) / Double(rate)
        return Double(crossings) / 2 / seconds
    }

    @Test(arguments: [3, 4, 5, 6, 7, 8])
    func eachSourceChannelComesBackInItsWAVPosition(channels: Int) throws {
        let dir = try Scratch()
        let path = dir.file("multichannel.ogg")
        let freqs = Self.frequencies(channels: channels)
        try Fixtures.oggVorbis(path, seconds: 1, channels: channels, synth: freqs.flatMap { ["sine", "\($0)"] }, quality: 5)
        let decoded = try DecodedFile.read(path)
        #expect(decoded.links[0].format.channels == channels)
        let samples = decoded.allSamples
        for c in 0..<channels {
            let measured = Self.frequency(samples, channel: c, of: channels, rate: 44100)
            #expect(abs(measured - Double(freqs[c])) < Double(freqs[c]) * 0.05, "WAV channel \(c): \(measured) Hz")
        }
    }

    @Test func fivePointOneIsBitExactWithTheReferenceReordered() throws {
        let dir = try Scratch()
        let path = dir.file("surround.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.7, channels: 6, synth: Self.frequencies(channels: 6).flatMap { ["sine", "\($0)"] })
        // oggdec -R keeps Vorbis order: FL C FR RL RR LFE. WAV order: FL FR C LFE BL BR.
        let reference = PCM16.values(try Fixtures.referenceDecode(path))
        let decoded = try DecodedFile.read(path)
        let ours = decoded.allSamples.map(PCM16.int16)
        #expect(ours.count == reference.count)
        let vorbisIndexOfWAV = [0, 2, 1, 5, 3, 4]
        var mismatches = 0
        for frame in 0..<min(ours.count, reference.count) / 6 {
            for c in 0..<6 where ours[frame * 6 + c] != reference[frame * 6 + vorbisIndexOfWAV[c]] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
