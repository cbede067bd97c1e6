import Foundation
import MotetDecoding
import MotetEvents
import MotetTestSupport
import Testing

/// Chained (multi-link) files: each link's format and tags are announced before its samples, and
/// every frame of every link comes out.
@Suite struct ChainedFileTests {
    struct Part {
        var seconds: Double
        var rate: Int
        var channels: Int
        var title: String
    }

    /// Encodes each part alone, chains them, and returns the chain with each part's reference decode.
    func makeChain(_ parts: [Part], in dir: Scratch) throws -> (path: String, references: [[UInt8]]) {
        var files: [String] = []
        var references: [[UInt8]] = []
        for (i, part) in parts.enumerated() {
            let file = dir.file("part\(i).ogg")
            try Fixtures.oggVorbis(
                file, seconds: part.seconds, rate: part.rate, channels: part.channels, synth: ["sine", "\(200 + 150 * i)-\(900 + 300 * i)"],
                tags: Fixtures.Tags(title: part.title, artists: ["Artist \(i)"]), serial: 100 + i)
            files.append(file)
            references.append(try Fixtures.referenceDecode(file))
        }
        let chain = dir.file("chain.ogg")
        try Fixtures.chain(files, into: chain)
        return (chain, references)
    }

    @Test(arguments: [1, 64, 4096])
    func tinyFirstLinkLosesNoFrame(chunk: Int) throws {
        let dir = try Scratch()
        let parts = [
            Part(seconds: 0.01, rate: 44100, channels: 2, title: "Tiny"),
            Part(seconds: 1.0, rate: 44100, channels: 2, title: "Second"),
        ]
        let (chain, references) = try makeChain(parts, in: dir)
        let decoder = try VorbisDecoder(path: chain)
        #expect(decoder.linkCount == 2)
        #expect(decoder.totalFrames == Int64(441 + 44100))
        #expect(decoder.metadata.title == "Tiny")
        let decoded = DecodedFile.read(decoder, chunk: chunk)

        #expect(decoded.failure == nil)
        #expect(decoded.links.map(\.metadata.title) == ["Tiny", "Second"])
        #expect(decoded.links.map(\.metadata.artists) == [["Artist 0"], ["Artist 1"]])
        #expect(decoded.links.map(\.frames) == references.map { $0.count / 4 })
        #expect(decoded.links.map(\.frames) == [441, 44100])
        for (link, reference) in zip(decoded.links, references) {
            #expect(difference(PCM16.bytes(link.samples), reference) == nil)
        }
        #expect(decoded.finalPosition == decoder.durationMicros)
    }

    @Test(arguments: [1, 4096])
    func mixedRatesAndChannelsChangeFormatAtEachLink(chunk: Int) throws {
        let dir = try Scratch()
        let parts = [
            Part(seconds: 0.3, rate: 44100, channels: 2, title: "One"),
            Part(seconds: 0.5, rate: 22050, channels: 1, title: "Two"),
            Part(seconds: 0.2, rate: 48000, channels: 2, title: "Three"),
            Part(seconds: 0.01, rate: 8000, channels: 1, title: "Four"),
        ]
        let (chain, references) = try makeChain(parts, in: dir)
        let decoder = try VorbisDecoder(path: chain)
        #expect(decoder.linkCount == 4)
        let frames = parts.map { Int64(($0.seconds * Double($0.rate)).rounded()) }
        #expect(decoder.totalFrames == frames.reduce(0, +))
        // The sum of each link's own time: not total frames over one rate.
        let micros = zip(frames, parts).map { $0 * 1_000_000 / Int64($1.rate) }.reduce(0, +)
        #expect(decoder.durationMicros == micros)
        #expect(decoder.durationMicros == 1_010_000)

        let decoded = DecodedFile.read(decoder, chunk: chunk)
        #expect(decoded.failure == nil)
        #expect(decoded.links.map(\.format) == parts.map { AudioFormat(sampleRate: $0.rate, channels: $0.channels) })
        #expect(decoded.links.map(\.metadata.title) == parts.map(\.title))
        #expect(decoded.links.map { Int64($0.frames) } == frames)
        for (i, (link, reference)) in zip(decoded.links, references).enumerated() {
            #expect(link.frames * link.format.channels * 2 == reference.count, "link \(i)")
            #expect(difference(PCM16.bytes(link.samples), reference) == nil, "link \(i)")
        }
        #expect(decoded.finalPosition == 1_010_000)
    }

    @Test func sameFormatLinksStillAnnounceTheirTags() throws {
        let dir = try Scratch()
        let parts = (0..<3).map { Part(seconds: 0.2, rate: 44100, channels: 2, title: "Song \($0)") }
        let (chain, _) = try makeChain(parts, in: dir)
        let decoded = try DecodedFile.read(chain)
        #expect(decoded.links.count == 3)
        #expect(decoded.links.map(\.metadata.title) == ["Song 0", "Song 1", "Song 2"])
        #expect(decoded.frames == 3 * 8820)
    }
}
