/// A picture carried inside the file's Vorbis comments (METADATA_BLOCK_PICTURE or COVERART).
public struct EmbeddedPicture: Sendable, Equatable {
    /// The image file's bytes (JPEG, PNG, …), at most `PictureParser.maximumBytes`.
    public var bytes: [UInt8]
    /// The image's MIME type, e.g. "image/jpeg" (sniffed from the bytes when they say more than the tag).
    public var mime: String
    /// The FLAC/ID3v2 picture type: 3 is the front cover, 0 "other" (also used for COVERART).
    public var pictureType: UInt32

    /// A picture as given (no checks happen here; `PictureParser` checks what it parses).
    public init(bytes: [UInt8], mime: String, pictureType: UInt32) {
        self.bytes = bytes
        self.mime = mime
        self.pictureType = pictureType
    }
}
