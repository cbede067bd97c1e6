import MotetEvents
import MotetNetwork

/// Entries read when they are played, as mpd and mpv do: a URL whose server answers with a
/// playlist's content type is a playlist after all (the inputs never fetch a URL without a
/// playlist's name: it may be a live stream that never ends), and a URL given while playing
/// (MPRIS OpenUri) is read as an input is. The same reading, limits and lines as the inputs'.
extension InputExpander {
    /// The remote playlists fetched while playing, for the limit of one run.
    public struct FetchBudget: Sendable {
        var fetches = 0
        var limitReported = false

        public init() {}
    }

    /// A track an entry read while playing gives: its path or URL, the remote playlists it was
    /// found in (display URLs, outermost first) and the title its playlist gives it.
    public struct PlayedTrack: Sendable, Equatable {
        public var path: String
        public var origin: [String]
        public var title: String?

        public init(path: String, origin: [String] = [], title: String? = nil) {
            self.path = path
            self.origin = origin
            self.title = title
        }
    }

    /// What an entry read while playing gives: its tracks, in order, and one warning line
    /// (starting with `motet: `) per problem.
    public struct PlayedEntry: Sendable {
        public var entries: [PlayedTrack]
        public var warnings: [String]
    }

    /// Reads the entry `url`: with `playlist` (the content type its server answered with) it is
    /// fetched and read as that playlist; without, it is read as an input (a playlist's name makes
    /// it a remote playlist, anything else is a track). `origin`: the remote playlists the entry
    /// came from — nesting depth and self-inclusion count along that chain.
    public static func expandPlayed(
        _ url: String, playlist: PlaylistContentType?, origin: [String], budget: inout FetchBudget, fetch: @escaping Fetch
    ) -> PlayedEntry {
        var walk = Walk(fetch: fetch)
        walk.openAddresses = origin
        walk.fetchCount = budget.fetches
        walk.fetchLimitReported = budget.limitReported
        switch PlaylistReader.resolve(url, against: .directory("")) {
        case .url(let address):
            if let playlist {
                walk.addRemotePlaylist(address, nameFormat: PlaylistReader.Format(playlist), context: nil, depth: origin.count)
            } else {
                walk.addURL(address, context: nil, depth: origin.count)
            }
        case .path(let path): walk.add(path, context: nil, depth: origin.count)
        case .unsupported(let reason): walk.warn(url, reason, nil)
        }
        budget.fetches = walk.fetchCount
        budget.limitReported = walk.fetchLimitReported
        let tracks = walk.files.indices.map { PlayedTrack(path: walk.files[$0], origin: walk.origins[$0], title: walk.titles[$0]) }
        return PlayedEntry(entries: tracks, warnings: walk.warnings)
    }

    /// Whether `path` (a local path or an http(s) URL) names a playlist (`.m3u`, `.m3u8`, `.pls`,
    /// `.xspf`, any case).
    public static func namesPlaylist(_ path: String) -> Bool {
        guard WebAddress.looksLikeURL(path) else { return PlaylistReader.Format(name: path) != nil }
        guard let address = WebAddress(path), address.isRemote else { return false }
        return PlaylistReader.Format(name: address.lowercasedFileName) != nil
    }
}
