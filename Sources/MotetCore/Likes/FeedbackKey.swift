import MotetSystem

/// How a track is recognised in the feedback file, so that a renamed or moved file keeps its rating
/// when its tags match.
///
/// With a title, the key is `tags:` + the normalized `TITLE|ARTIST;ARTIST|ALBUM` (lower case, blanks
/// trimmed and collapsed, artists sorted, each field cut at 1024 characters, `\`, `|` and `;`
/// escaped). Without a title it is `path:` + the canonical path. A track that comes over the
/// network is keyed by its tags only, never by its URL (a live stream's URL is the station, not
/// the song); without a title it cannot be rated.
enum FeedbackKey {
    /// Longest normalized field kept.
    static let fieldLimit = 1024

    /// The tag key, or nil when there is no usable title.
    static func tags(title: String?, artists: [String], album: String?) -> String? {
        guard let title else { return nil }
        let normalizedTitle = normalize(title)
        guard !normalizedTitle.isEmpty else { return nil }
        let normalizedArtists = artists.map(normalize).filter { !$0.isEmpty }.sorted()
        let parts = [
            escape(normalizedTitle),
            normalizedArtists.map(escape).joined(separator: ";"),
            escape(normalize(album ?? "")),
        ]
        return "tags:" + parts.joined(separator: "|")
    }

    /// The path key: the canonical path when the file exists, else the path as given.
    static func path(_ path: String) -> String {
        "path:" + (FileSystem.canonicalPath(path) ?? path)
    }

    /// Lower case, blanks (and control characters) trimmed and collapsed to one space, cut.
    static func normalize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var count = 0
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F {
                pendingSpace = !out.isEmpty
                continue
            }
            if count >= fieldLimit { break }
            if pendingSpace {
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            out.append(scalar)
            count += 1
        }
        return String(out)
    }

    private static func escape(_ field: String) -> String {
        var out = ""
        for c in field.unicodeScalars {
            if c == "\\" || c == "|" || c == ";" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
