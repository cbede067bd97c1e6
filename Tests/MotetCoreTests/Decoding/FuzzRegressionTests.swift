import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// Inputs the libFuzzer targets in Tests/Fuzz found (see FUZZING.md), through the real decoder.
@Suite struct FuzzRegressionTests {
    func track(_ comments: [[UInt8]], in dir: Scratch) throws -> VorbisDecoder {
        let path = dir.file("tags.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.1)
        try Fixtures.replaceComments(path, comments)
        return try VorbisDecoder(path: path)
    }

    /// comments target, crash-c2c7f6f3: a 1,200-byte ALBUM of "é" with one broken sequence. The
    /// bytes were cut to 1,024, then each invalid byte became U+FFFD (3 bytes): the tag came out
    /// longer than the documented limit.
    @Test func repairedInvalidUTF8StaysWithinTheTextLimit() throws {
        let dir = try Scratch()
        let invalid = [UInt8](repeating: 0xff, count: 1000)
        let mixed = Array("ALBUM=".utf8) + Array(repeating: [0xc3, 0xa9], count: 40).flatMap { $0 } + [0xc3, 0x7a]
            + Array(repeating: [0xc3, 0xa9], count: 600).flatMap { $0 }
        let decoder = try track([Array("TITLE=".utf8) + invalid, mixed, Array("ARTIST=".utf8) + invalid], in: dir)
        let title = try #require(decoder.metadata.title)
        let album = try #require(decoder.metadata.album)
        let artist = try #require(decoder.metadata.artists.first)
        #expect(title.utf8.count <= 1024 && title.utf8.count >= 1020)
        #expect(title.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        #expect(album.utf8.count <= 1024)
        #expect(album.hasPrefix(String(repeating: "é", count: 40) + "\u{FFFD}z"))
        #expect(artist.utf8.count <= 1024)
        #expect(decoder.metadata.warnings.contains("TITLE longer than 1024 bytes was shortened"))
    }

    /// Short invalid UTF-8 is repaired, not cut, and needs no warning.
    @Test func shortInvalidUTF8IsRepairedWhole() throws {
        let dir = try Scratch()
        let decoder = try track([Array("TITLE=a".utf8) + [0xff, 0xfe] + Array("b".utf8)], in: dir)
        #expect(decoder.metadata.title == "a\u{FFFD}\u{FFFD}b")
        #expect(decoder.metadata.warnings.isEmpty)
    }
}
