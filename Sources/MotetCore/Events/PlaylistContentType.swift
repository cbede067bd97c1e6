/// The HTTP content types of the playlist formats Motet reads: one home for the inputs (which read
/// a remote playlist by its type) and the network layer (which tells a playlist from a stream).
public enum PlaylistContentType: Sendable, Equatable {
    case m3u, pls, xspf

    /// By an HTTP `Content-Type` (parameters and case ignored); nil for anything else,
    /// `text/plain` included (servers send it for every kind of file).
    public init?(_ contentType: String) {
        let type = String(contentType.split(separator: ";", maxSplits: 1).first ?? "").filter { $0 != " " && $0 != "\t" }.lowercased()
        switch type {
        case "audio/x-mpegurl", "audio/mpegurl", "application/x-mpegurl", "application/vnd.apple.mpegurl",
            "application/mpegurl", "audio/x-mpequrl":
            self = .m3u
        case "audio/x-scpls", "audio/scpls", "application/pls+xml", "application/pls":
            self = .pls
        case "application/xspf+xml":
            self = .xspf
        default:
            return nil
        }
    }

    /// What it is called in messages.
    public var name: String {
        switch self {
        case .m3u: "an M3U"
        case .pls: "a PLS"
        case .xspf: "an XSPF"
        }
    }

    /// The name's extension that makes Motet read a URL as this playlist.
    public var suffix: String {
        switch self {
        case .m3u: ".m3u"
        case .pls: ".pls"
        case .xspf: ".xspf"
        }
    }
}
