import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// Artwork: embedded picture, else a cover file beside the track, else the default image; cached
/// in a private directory under a file named by the SHA-256 of the bytes.
@Suite struct ArtworkStoreTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Array(repeating: 1, count: 100)
    static let jpeg: [UInt8] = [0xff, 0xd8, 0xff, 0xe0] + Array(repeating: 2, count: 100)
    static let otherJPEG: [UInt8] = [0xff, 0xd8, 0xff, 0xe1] + Array(repeating: 3, count: 100)

    func sha256(_ path: String) throws -> String {
        String(try Shell.check(["sha256sum", path]).stdout.prefix(64))
    }

    func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    @Test func embeddedPictureIsCachedUnderItsHash() throws {
        let dir = try Scratch()
        let cache = dir.file("cache/motet/artwork")
        let store = ArtworkStore(cacheDirectory: cache)
        let art = try #require(
            store.artwork(embedded: EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3), trackPath: dir.file("t.ogg"), defaultArtwork: nil))
        #expect(art.bytes == Self.png)
        #expect(art.mime == "image/png")
        let path = try #require(art.path)
        #expect(path == cache + "/" + art.id + ".png")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == Self.png)
        #expect(try sha256(path) == art.id)
        let mode = try FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        // No temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache) == [art.id + ".png"])

        // Same bytes, same id and file; other bytes, another id.
        let again = store.artwork(embedded: EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3), trackPath: "x.ogg", defaultArtwork: nil)
        #expect(again == art)
        let other = store.artwork(embedded: EmbeddedPicture(bytes: Self.jpeg, mime: "image/jpeg", pictureType: 3), trackPath: "x.ogg", defaultArtwork: nil)
        #expect(other?.id != art.id)
    }

    /// The id is SHA-256, across the padding boundaries (55, 56, 63, 64 bytes) and a large picture.
    @Test(arguments: [1, 55, 56, 63, 64, 65, 1_000_003])
    func idIsTheSHA256OfTheBytes(count: Int) throws {
        let dir = try Scratch()
        var bytes = Self.jpeg
        var state: UInt32 = 1
        while bytes.count < count {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes.append(UInt8(truncatingIfNeeded: state >> 24))
        }
        bytes = Array(bytes.prefix(count))
        let art = try #require(
            ArtworkStore(cacheDirectory: dir.file("cache")).artwork(
                embedded: EmbeddedPicture(bytes: bytes, mime: "image/jpeg", pictureType: 3), trackPath: "t.ogg", defaultArtwork: nil))
        let path = try #require(art.path)
        #expect(try sha256(path) == art.id)
    }

    @Test func coverFileBesideTheTrackInOrderOfPreference() throws {
        let dir = try Scratch()
        let album = dir.file("album")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        try write(Self.otherJPEG, album + "/front.jpg")
        try write(Self.jpeg, album + "/Folder.JPG")
        let store = ArtworkStore(cacheDirectory: dir.file("cache"))
        let art = store.artwork(embedded: nil, trackPath: album + "/01 song.ogg", defaultArtwork: nil)
        #expect(art?.bytes == Self.jpeg)
        #expect(art?.mime == "image/jpeg")

        try write(Self.png, album + "/cover.png")
        #expect(store.artwork(embedded: nil, trackPath: album + "/01 song.ogg", defaultArtwork: nil)?.bytes == Self.png)
    }

    @Test func embeddedPictureWinsOverCoverFile() throws {
        let dir = try Scratch()
        try write(Self.jpeg, dir.file("cover.jpg"))
        let store = ArtworkStore(cacheDirectory: dir.file("cache"))
        let art = store.artwork(
            embedded: EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3), trackPath: dir.file("t.ogg"),
            defaultArtwork: nil)
        #expect(art?.bytes == Self.png)
    }

    @Test func defaultArtworkWhenNothingElse() throws {
        let dir = try Scratch()
        let fallback = dir.file("default.png")
        try write(Self.png, fallback)
        let album = dir.file("album")
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        // Not an image: ignored.
        try write(Array("hello".utf8), album + "/cover.jpg")
        let store = ArtworkStore(cacheDirectory: dir.file("cache"))
        #expect(store.artwork(embedded: nil, trackPath: album + "/t.ogg", defaultArtwork: fallback)?.bytes == Self.png)
        #expect(store.artwork(embedded: nil, trackPath: album + "/t.ogg", defaultArtwork: nil) == nil)
        #expect(store.artwork(embedded: nil, trackPath: album + "/t.ogg", defaultArtwork: dir.file("missing.png")) == nil)
    }

    @Test func aSymlinkPlantedInTheCacheIsReplacedNotFollowed() throws {
        let dir = try Scratch()
        let cache = dir.file("cache")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let victim = dir.file("victim.txt")
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        let store = ArtworkStore(cacheDirectory: cache)
        let id = store.artwork(embedded: EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3), trackPath: "t.ogg", defaultArtwork: nil)!.id
        let final = cache + "/" + id + ".png"
        try FileManager.default.removeItem(atPath: final)
        try FileManager.default.createSymbolicLink(atPath: final, withDestinationPath: victim)

        let art = store.artwork(embedded: EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3), trackPath: "t.ogg", defaultArtwork: nil)
        #expect(art?.path == final)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        let type = try FileManager.default.attributesOfItem(atPath: final)[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: final))) == Self.png)
    }

    @Test func unwritableCacheStillGivesTheArtwork() throws {
        let dir = try Scratch()
        let blocker = dir.file("file")
        try write([1], blocker)
        let store = ArtworkStore(cacheDirectory: blocker + "/artwork")
        let art = store.artwork(embedded: EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3), trackPath: "t.ogg", defaultArtwork: nil)
        #expect(art?.bytes == Self.png)
        #expect(art?.path == nil)
        #expect(art?.id.count == 64)
    }

    @Test func pictureFromATaggedFileEndsUpInTheCache() throws {
        let dir = try Scratch()
        let path = dir.file("tagged.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.1)
        try Fixtures.addComments(path, ["METADATA_BLOCK_PICTURE=" + Data(Fixtures.pictureBlock(type: 3, mime: "image/jpeg", data: Self.jpeg)).base64EncodedString()])
        let decoder = try VorbisDecoder(path: path)
        let art = ArtworkStore(cacheDirectory: dir.file("cache")).artwork(embedded: decoder.metadata.picture, trackPath: path, defaultArtwork: nil)
        let cached = try #require(art?.path)
        #expect(try sha256(cached) == art?.id)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: cached))) == Self.jpeg)
    }
}
