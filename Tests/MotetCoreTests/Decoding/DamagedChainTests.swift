import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// A chained file with a damaged link in the middle (found by bench/bad-input.sh): the file plays
/// as a stream and the damaged link is reported once (libvorbisfile reports it once per header,
/// the player used to print the same line twice).
@Suite struct DamagedChainTests {
    /// good + (a link whose identification or setup header is damaged, checksums right) + good;
    /// the first and last links have the same serial number when `sameSerial`.
    func chainWithDamagedMiddle(sameSerial: Bool = false, _ damage: (inout [OggPage]) -> Void, in dir: Scratch) throws -> String {
        var parts: [String] = []
        for i in 0..<3 {
            let file = dir.file("part\(i).ogg")
            let serial = sameSerial && i == 2 ? 700 : 700 + i
            try Fixtures.oggVorbis(file, seconds: 0.3, synth: ["sine", "\(300 + 200 * i)"], serial: serial)
            parts.append(file)
        }
        var pages = OggPage.parse(Array(try Data(contentsOf: URL(fileURLWithPath: parts[1]))))
        damage(&pages)
        try Data(pages.flatMap(\.bytes)).write(to: URL(fileURLWithPath: parts[1]))
        let chain = dir.file("chain.ogg")
        try Fixtures.chain(parts, into: chain)
        return chain
    }

    @Test func withDistinctSerialsTheDamagedLinkIsOneHoleAndTheLastLinkPlays() throws {
        let dir = try Scratch()
        let path = try chainWithDamagedMiddle({ pages in
            let start = pages[1].body.count * 3 / 4
            for i in start..<start + 64 { pages[1].body[i] ^= 0x5a }
        }, in: dir)
        let decoded = try DecodedFile.read(path)
        #expect(decoded.failure == nil)
        #expect(decoded.holes.count == 1)
        #expect(decoded.links.count == 2)
        // Both sound links, 0.3 s each, come out whole.
        #expect(abs(decoded.frames - 2 * 13230) < 64)
    }

    @Test func withADamagedIdentificationHeaderTheDamagedLinkIsOneHole() throws {
        let dir = try Scratch()
        let path = try chainWithDamagedMiddle({ pages in pages[0].body[6] = UInt8(ascii: "z") }, in: dir)
        let decoded = try DecodedFile.read(path)
        #expect(decoded.failure == nil)
        #expect(decoded.holes.count == 1)
        #expect(abs(decoded.frames - 2 * 13230) < 64)
    }

    @Test func aSoundChainHasNoHole() throws {
        let dir = try Scratch()
        let path = try chainWithDamagedMiddle({ _ in }, in: dir)
        let decoded = try DecodedFile.read(path)
        #expect(decoded.holes.isEmpty)
        #expect(decoded.links.count == 3)
    }
}
