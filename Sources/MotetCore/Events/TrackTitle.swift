/// The one rule for a track's title, so that the status line, the sound server's stream name and
/// every delegate (notification bubble, MPRIS, the log, the JSON file) say the same thing.
public enum TrackTitle {
    /// Extensions left off a file's name when it stands for the title (compared ignoring case).
    static let hiddenExtensions = ["ogg", "oga"]

    /// The TITLE tag; for a track without one (an empty or blank TITLE counts as none, see
    /// `TrackMetadata.title`), the file's name without its `.ogg`/`.oga` extension: an untagged
    /// `music/bgm1.ogg` is `bgm1`. nil when there is neither (a stream without a title).
    public static func shown(tag: String?, filePath: String?) -> String? {
        if let tag, !tag.isEmpty { return tag }
        guard let filePath, let name = filePath.split(separator: "/").last.map(String.init) else { return nil }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex,
            hiddenExtensions.contains(name[name.index(after: dot)...].lowercased())
        {
            return String(name[..<dot])
        }
        return name
    }
}
