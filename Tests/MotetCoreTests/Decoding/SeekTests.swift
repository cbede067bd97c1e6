import Foundation
import MotetDecoding
import MotetEvents
import MotetTestSupport
import Testing

/// Seeking lands on the frame asked for, and reading continues from there with the right samples.
@Suite struct SeekTests {
    @Test(arguments: [0, 1_234_567, 2_000_000, 2_999_000])
    func seekLandsWhereAskedAndSamplesMatch(target: Int64) throws {
        let dir = try Scratch()
        let path = dir.file("seek.ogg")
        try Fixtures.oggVorbis(path, seconds: 3, synth: ["sine", "200-2000"])
        let reference = PCM16.values(try Fixtures.referenceDecode(path))
        let decoder = try VorbisDecoder(path: path)
        // Read a little first, so the seek really moves.
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2048 * 2)
        defer { buffer.deallocate() }
        _ = decoder.read(into: buffer, maxFrames: 2048)

        try decoder.seek(toMicros: target)
        let frameMicros: Int64 = 1_000_000 / 44100 + 1
        #expect(abs(decoder.positionMicros - target) <= frameMicros)
        let firstFrame = Int(target * 44100 / 1_000_000)
        let rest = DecodedFile.read(decoder)
        #expect(rest.frames == 132_300 - firstFrame)
        let expected = Array(reference[(firstFrame * 2)...])
        #expect(difference(rest.allSamples.map(PCM16.int16), expected) == nil)
        #expect(rest.finalPosition == 3_000_000)
    }

    @Test func seekIntoAnotherLinkMakesThatLinkCurrentAtOnce() throws {
        let dir = try Scratch()
        let a = dir.file("a.ogg")
        let b = dir.file("b.ogg")
        try Fixtures.oggVorbis(a, seconds: 1, rate: 44100, channels: 2, tags: Fixtures.Tags(title: "A"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 1, rate: 22050, channels: 1, synth: ["sine", "300-600"], tags: Fixtures.Tags(title: "B"), serial: 2)
        let chain = dir.file("ab.ogg")
        try Fixtures.chain([a, b], into: chain)
        let referenceB = PCM16.values(try Fixtures.referenceDecode(b))

        let decoder = try VorbisDecoder(path: chain)
        try decoder.seek(toMicros: 1_500_000)
        #expect(abs(decoder.positionMicros - 1_500_000) <= 1_000_000 / 22050 + 1)
        // Link B's format, tags and times right after the seek (each link is its own track).
        #expect(decoder.format == AudioFormat(sampleRate: 22050, channels: 1))
        #expect(decoder.metadata.title == "B")
        #expect(abs(decoder.linkStartMicros - 1_000_000) <= 1_000_000 / 44100 + 1)
        #expect(abs((decoder.linkDurationMicros ?? 0) - 1_000_000) <= 1_000_000 / 22050 + 1)
        let rest = DecodedFile.read(decoder)
        #expect(rest.links.count == 1)
        #expect(rest.links[0].format == AudioFormat(sampleRate: 22050, channels: 1))
        #expect(difference(rest.links[0].samples.map(PCM16.int16), Array(referenceB[11025...])) == nil)

        // And back into the first link.
        try decoder.seek(toMicros: 250_000)
        #expect(decoder.metadata.title == "A" && decoder.linkStartMicros == 0)
        let again = DecodedFile.read(decoder)
        #expect(again.links.map(\.format.sampleRate) == [44100, 22050])
        #expect(again.links[0].frames == 44100 - 11025)
        #expect(again.links[1].frames == 22050)
    }

    @Test func aStartPastTheEndIsAnErrorThatSaysSo() throws {
        let dir = try Scratch()
        let path = dir.file("three.ogg")
        try Fixtures.oggVorbis(path, seconds: 3)
        let decoder = try VorbisDecoder(path: path)
        #expect(throws: Never.self) { try decoder.start(atMicros: 2_500_000) }
        for start: Int64 in [3_000_000, 5_000_000] {
            do {
                try decoder.start(atMicros: start)
                Issue.record("--start \(start) on a 3 s file was accepted")
            } catch {
                #expect(error.line(path: path) == "\(path): --start \(start / 1_000_000) is past the end (3 s)")
            }
        }
        let short = dir.file("short.ogg")
        try Fixtures.oggVorbis(short, seconds: 0.5)
        #expect(throws: DecoderError.self) { try VorbisDecoder(path: short).start(atMicros: 1_250_000) }
        do { try VorbisDecoder(path: short).start(atMicros: 1_250_000) } catch {
            #expect(error.line(path: short).hasSuffix(": --start 1.25 is past the end (0.5 s)"))
        }
    }

    @Test func seekPastTheEndEndsTheStream() throws {
        let dir = try Scratch()
        let path = dir.file("short.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.5)
        let decoder = try VorbisDecoder(path: path)
        try decoder.seek(toMicros: 60_000_000)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 1024 * 2)
        defer { buffer.deallocate() }
        guard case .endOfStream = decoder.read(into: buffer, maxFrames: 1024) else {
            Issue.record("reading after a seek past the end did not end the stream")
            return
        }
        // Seeking back works after the end was reached.
        try decoder.seek(toMicros: 0)
        #expect(DecodedFile.read(decoder).frames == 22050)
    }
}
