/// The tags of one link of an Ogg file, read from its Vorbis comments (Vorbis) or OpusTags (Opus).
///
/// Text is repaired (invalid UTF-8 becomes U+FFFD, NULs are dropped) and bounded in length, but
/// control characters are kept: the display layers escape them.
public struct TrackMetadata: Sendable, Equatable {
    /// The first TITLE comment that is not empty or blank (nil when there is none).
    public var title: String?
    /// Every non-blank ARTIST comment, in file order: several ARTIST comments are several artists.
    public var artists: [String]
    /// The first ALBUM comment that is not empty or blank (nil when there is none).
    public var album: String?
    /// The REPLAYGAIN_* comments (Vorbis), or the R128_* gains made ReplayGain gains (Opus).
    public var replayGain: ReplayGainTags
    /// METADATA_BLOCK_PICTURE (front cover preferred, then any), else COVERART/COVERARTMIME
    public var picture: EmbeddedPicture?
    /// What was wrong with the tags and ignored or shortened, one line each, e.g.
    /// "picture of 52 MiB ignored (limit 16 MiB)".
    public var warnings: [String]

    /// Tags as given (no repair or bounding happens here).
    public init(
        title: String? = nil, artists: [String] = [], album: String? = nil, replayGain: ReplayGainTags = ReplayGainTags(),
        picture: EmbeddedPicture? = nil, warnings: [String] = []
    ) {
        self.title = title
        self.artists = artists
        self.album = album
        self.replayGain = replayGain
        self.picture = picture
        self.warnings = warnings
    }
}

extension TrackMetadata {
    /// The same title, artists and album (a reconnection resuming the song on air).
    public func isSameSong(as other: TrackMetadata) -> Bool {
        title == other.title && artists == other.artists && album == other.album
    }
}
