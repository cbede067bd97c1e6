import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// Every frame of a file comes out, no more: counts and samples equal libvorbisfile's own decoder
/// (`oggdec -R -b 16`), converted exactly as `ov_read` converts.
@Suite struct FrameCountTests {
    @Test(arguments: [0.05, 3.0])
    func stereoFileDecodesEveryFrameBitExact(seconds: Double) throws {
        let dir = try Scratch()
        let path = dir.file("stereo.ogg")
        try Fixtures.oggVorbis(path, seconds: seconds, synth: ["sine", "200-2000"])
        let reference = try Fixtures.referenceDecode(path)

        let decoder = try VorbisDecoder(path: path)
        #expect(decoder.format.sampleRate == 44100)
        #expect(decoder.format.channels == 2)
        let decoded = DecodedFile.read(decoder)

        #expect(decoded.failure == nil)
        #expect(decoded.holes.isEmpty)
        #expect(decoded.frames == reference.count / 4)
        #expect(Int64(decoded.frames) == decoder.totalFrames)
        #expect(decoded.frames == Int((seconds * 44100).rounded()))
        #expect(difference(PCM16.bytes(decoded.allSamples), reference) == nil)
    }

    @Test func monoLowRateFileDecodesEveryFrameBitExact() throws {
        let dir = try Scratch()
        let path = dir.file("mono.ogg")
        try Fixtures.oggVorbis(path, seconds: 1.3, rate: 22050, channels: 1, synth: ["sine", "100-3000"])
        let reference = try Fixtures.referenceDecode(path)
        let decoded = try DecodedFile.read(path)
        #expect(decoded.links.count == 1)
        #expect(decoded.links[0].format.channels == 1)
        #expect(decoded.links[0].format.sampleRate == 22050)
        #expect(decoded.frames == reference.count / 2)
        #expect(difference(PCM16.bytes(decoded.allSamples), reference) == nil)
    }

    @Test(arguments: [1, 7, 1000])
    func smallReadsGiveTheSameSamples(chunk: Int) throws {
        let dir = try Scratch()
        let path = dir.file("chunks.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.4, synth: ["sine", "300-900"])
        let whole = try DecodedFile.read(path, chunk: 4096)
        let pieces = try DecodedFile.read(path, chunk: chunk)
        #expect(pieces.frames == whole.frames)
        #expect(difference(pieces.allSamples, whole.allSamples) == nil)
    }

    @Test func durationAndPositionsSpanTheFile() throws {
        let dir = try Scratch()
        let path = dir.file("two-seconds.ogg")
        try Fixtures.oggVorbis(path, seconds: 2)
        let decoder = try VorbisDecoder(path: path)
        #expect(decoder.linkCount == 1)
        #expect(decoder.canSeek)
        #expect(decoder.totalFrames == 88200)
        #expect(decoder.durationMicros == 2_000_000)
        #expect(decoder.positionMicros == 0)
        let decoded = DecodedFile.read(decoder)
        #expect(decoded.frames == 88200)
        #expect(decoded.finalPosition == 2_000_000)
    }

    @Test func silenceDecodesToZeros() throws {
        let dir = try Scratch()
        let path = dir.file("silence.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.5, synth: ["sine", "0", "vol", "0"])
        let decoded = try DecodedFile.read(path)
        #expect(decoded.frames == 22050)
        #expect(decoded.allSamples.allSatisfy { abs($0) < 1e-4 })
    }
}
