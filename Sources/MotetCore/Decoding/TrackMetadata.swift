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
    /// The first ALBUMARTIST (or "ALBUM ARTIST") comment that is not blank: who the album is by,
    /// when its tracks' artists differ (a compilation). Nil when there is none.
    public var albumArtist: String? = nil
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

    /// Who the album is by: ALBUMARTIST, else the artists.
    public var albumArtists: [String] { albumArtist.map { [$0] } ?? artists }

    /// Both tracks are of one album: the same ALBUM and album artist (ALBUMARTIST, else ARTIST).
    /// Untagged tracks (no ALBUM on either) are of one album when they share a directory, which
    /// the caller knows (`sameDirectory`). Crossfade joins such neighbours gaplessly.
    public func isSameAlbum(as other: TrackMetadata, sameDirectory: Bool) -> Bool {
        guard let album, let otherAlbum = other.album else { return album == nil && other.album == nil && sameDirectory }
        return album == otherAlbum && albumArtists == other.albumArtists
    }
}
