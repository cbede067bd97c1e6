import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// Tags from Vorbis comments, all treated as hostile input.
@Suite struct MetadataTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Array(repeating: 7, count: 40)
    static let jpeg: [UInt8] = [0xff, 0xd8, 0xff, 0xe0] + Array(repeating: 9, count: 60)

    static func pictureComment(type: UInt32, mime: String, data: [UInt8]) -> String {
        "METADATA_BLOCK_PICTURE=" + Data(Fixtures.pictureBlock(type: type, mime: mime, data: data)).base64EncodedString()
    }

    func tagged(_ dir: Scratch, tags: Fixtures.Tags = Fixtures.Tags(), comments: [String] = []) throws -> String {
        let path = dir.file("tagged.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.2, tags: tags)
        if !comments.isEmpty { try Fixtures.addComments(path, comments) }
        return path
    }

    /// A file whose comment header holds exactly these byte strings.
    func rawTagged(_ dir: Scratch, _ comments: [[UInt8]]) throws -> String {
        let path = dir.file("raw.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.2)
        try Fixtures.replaceComments(path, comments)
        return path
    }

    @Test func titleAlbumAndSeveralArtists() throws {
        let dir = try Scratch()
        let path = try tagged(dir, tags: Fixtures.Tags(title: "Motet in G", album: "Vespers", extra: ["ARTIST=Anna", "ARTIST=Bruno", "ARTIST=Chloé"]))
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.title == "Motet in G")
        #expect(m.artists == ["Anna", "Bruno", "Chloé"])
        #expect(m.album == "Vespers")
        #expect(m.picture == nil)
        #expect(m.warnings.isEmpty)
    }

    @Test func keysAreCaseInsensitive() throws {
        let dir = try Scratch()
        let path = try rawTagged(dir, [Array("tItLe=Lower".utf8), Array("Artist=One".utf8), Array("ARTIST=Two".utf8), Array("album=Mixed".utf8)])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.title == "Lower")
        #expect(m.artists == ["One", "Two"])
        #expect(m.album == "Mixed")
    }

    @Test func emptyTagsCountAsMissing() throws {
        let dir = try Scratch()
        let path = try rawTagged(dir, [Array("TITLE=".utf8), Array("ARTIST=".utf8), Array("ALBUM=  ".utf8)])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.title == nil)
        #expect(m.artists.isEmpty)
        #expect(m.album == nil)
    }

    @Test func anEmptyTagGivesWayToALaterOneWithText() throws {
        let dir = try Scratch()
        let path = try rawTagged(dir, [Array("TITLE=".utf8), Array("TITLE=Second".utf8), Array("ALBUM=".utf8), Array("album=Kept".utf8)])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.title == "Second")
        #expect(m.album == "Kept")
    }

    @Test func invalidUTF8IsRepairedAndNULsDropped() throws {
        let dir = try Scratch()
        let title: [UInt8] = Array("TITLE=Caf".utf8) + [0xc3] + Array("!".utf8) + [0xff, 0xfe] + Array("end".utf8)
        let artist: [UInt8] = Array("ARTIST=A".utf8) + [0, 0] + Array("B".utf8)
        let path = try rawTagged(dir, [title, artist, Array("ALBUM=".utf8) + [0xe2, 0x82]])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.title == "Caf\u{FFFD}!\u{FFFD}\u{FFFD}end")
        #expect(m.artists == ["AB"])
        #expect(m.album == "\u{FFFD}")
    }

    @Test func longTextIsCappedWithAWarning() throws {
        let dir = try Scratch()
        // 3-byte characters, so the cap falls inside one: it must not be split.
        let long = String(repeating: "€", count: 5000)
        let path = try rawTagged(dir, [Array("TITLE=\(long)".utf8)] + (0..<40).map { Array("ARTIST=A\($0)".utf8) })
        let m = try VorbisDecoder(path: path).metadata
        let title = try #require(m.title)
        #expect(title.utf8.count <= 1024)
        #expect(title.utf8.count > 1000)
        #expect(title.allSatisfy { $0 == "€" })
        #expect(m.artists.count == 32)
        #expect(m.warnings.contains { $0.contains("TITLE") && $0.contains("1024") })
        #expect(m.warnings.contains { $0.contains("ARTIST") })
    }

    @Test func frontCoverIsPreferredOverOtherPictures() throws {
        let dir = try Scratch()
        let path = try tagged(
            dir,
            comments: [
                Self.pictureComment(type: 4, mime: "image/png", data: Self.png),
                Self.pictureComment(type: 3, mime: "image/jpeg", data: Self.jpeg),
                Self.pictureComment(type: 0, mime: "image/png", data: Self.png),
            ])
        let picture = try #require(try VorbisDecoder(path: path).metadata.picture)
        #expect(picture.pictureType == 3)
        #expect(picture.mime == "image/jpeg")
        #expect(picture.bytes == Self.jpeg)
    }

    @Test func anyPictureIsUsedWhenThereIsNoFrontCover() throws {
        let dir = try Scratch()
        let path = try tagged(dir, comments: [Self.pictureComment(type: 8, mime: "image/png", data: Self.png)])
        let picture = try #require(try VorbisDecoder(path: path).metadata.picture)
        #expect(picture.pictureType == 8)
        #expect(picture.mime == "image/png")
        #expect(picture.bytes == Self.png)
    }

    @Test func legacyCoverArtIsRead() throws {
        let dir = try Scratch()
        let path = try tagged(dir, comments: ["COVERARTMIME=image/png", "COVERART=" + Data(Self.png).base64EncodedString()])
        let picture = try #require(try VorbisDecoder(path: path).metadata.picture)
        #expect(picture.bytes == Self.png)
        #expect(picture.mime == "image/png")
    }

    @Test func absurdLengthsInAPictureBlockGiveAWarningNotACrash() throws {
        let dir = try Scratch()
        var block = Fixtures.pictureBlock(type: 3, mime: "image/png", data: Self.png)
        block.replaceSubrange(4..<8, with: [0xff, 0xff, 0xff, 0xf0])  // MIME length far past the end
        var lyingData = Fixtures.pictureBlock(type: 3, mime: "image/png", data: Self.png)
        let dataLength = lyingData.count - Self.png.count - 4
        lyingData.replaceSubrange(dataLength..<dataLength + 4, with: [0, 0, 0x10, 0])  // 4096 bytes claimed, 48 present
        let path = try tagged(
            dir,
            comments: [
                "METADATA_BLOCK_PICTURE=" + Data(block).base64EncodedString(),
                "METADATA_BLOCK_PICTURE=" + Data(lyingData).base64EncodedString(),
                "METADATA_BLOCK_PICTURE=not base64 at all!",
            ])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.picture == nil)
        #expect(m.warnings.contains { $0.contains("MIME type") })
        #expect(m.warnings.contains { $0.contains("picture data") })
        #expect(m.warnings.contains { $0.contains("base64") })
    }

    @Test func aBrokenFrontCoverFallsBackToAnotherPicture() throws {
        let dir = try Scratch()
        let broken = Array(Fixtures.pictureBlock(type: 3, mime: "image/jpeg", data: Self.jpeg).prefix(30))
        let path = try tagged(
            dir,
            comments: [
                "METADATA_BLOCK_PICTURE=" + Data(broken).base64EncodedString(),
                Self.pictureComment(type: 0, mime: "image/png", data: Self.png),
            ])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.picture?.bytes == Self.png)
        #expect(m.warnings.count == 1)
    }

    @Test func aPictureOf50MBIsIgnoredWithAWarning() throws {
        let dir = try Scratch()
        let huge = Self.jpeg + [UInt8](repeating: 0x55, count: 50 << 20)
        let path = try tagged(dir, comments: [Self.pictureComment(type: 3, mime: "image/jpeg", data: huge)])
        let decoder = try VorbisDecoder(path: path)
        #expect(decoder.metadata.picture == nil)
        #expect(decoder.metadata.warnings == ["picture of 50 MiB ignored (limit 16 MiB)"])
        // The audio is unaffected.
        #expect(DecodedFile.read(decoder).frames == 8820)
    }

    @Test func replayGainTagsAreParsed() throws {
        let dir = try Scratch()
        let path = try tagged(
            dir,
            comments: [
                "REPLAYGAIN_TRACK_GAIN=-6.02 dB", "REPLAYGAIN_TRACK_PEAK=0.912", "replaygain_album_gain=+1.50dB",
                "REPLAYGAIN_ALBUM_PEAK=nan",
            ])
        let m = try VorbisDecoder(path: path).metadata
        #expect(m.replayGain.trackGain == -6.02)
        #expect(m.replayGain.trackPeak == 0.912)
        #expect(m.replayGain.albumGain == 1.5)
        #expect(m.replayGain.albumPeak == nil)
        #expect(m.warnings.contains { $0.contains("REPLAYGAIN_ALBUM_PEAK") })
    }
}
