import MotetPluginKit

/// The parts of a now-playing snapshot that MPRIS shows, copied (the artwork bytes are left
/// behind: MPRIS only needs the cached file).
struct MPRISTrack: Sendable, Equatable {
    var trackID: UInt64
    var title: String?
    var artists: [String]
    var album: String?
    var durationMicros: Int64?
    var artworkPath: String?
    var filePath: String?
    /// The URL of a track that comes over the network (a stream), else nil.
    var url: String?
    /// The station's name (icy-name) of a stream, else nil.
    var station: String?

    init(_ info: NowPlayingInfo) {
        trackID = info.trackID
        title = Self.nonEmpty(info.title)
        let names = info.artists.filter { !$0.isEmpty }
        artists = names.isEmpty ? (Self.nonEmpty(info.artist).map { [$0] } ?? []) : names
        album = Self.nonEmpty(info.album)
        durationMicros = info.durationMicros.flatMap { $0 >= 0 ? $0 : nil }
        artworkPath = Self.nonEmpty(info.artwork?.path)
        filePath = Self.nonEmpty(info.filePath)
        url = Self.nonEmpty(info.url)
        station = Self.nonEmpty(info.station)
    }

    /// An empty tag or path is shown as absent.
    private static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.isEmpty ? nil : $0 } }

    /// `mpris:trackid` of a track: an object path in Motet's own namespace.
    static func objectPath(_ trackID: UInt64) -> String { "/org/motet/track/\(trackID)" }

    /// The spec's track id for "no current track".
    static let noTrackPath = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
}
