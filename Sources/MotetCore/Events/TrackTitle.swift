/// The one rule for a track's title, so that the status line, the sound server's stream name and
/// every delegate (notification bubble, MPRIS, the log, the JSON file) say the same thing.
public enum TrackTitle {
    /// Extensions left off a file's name when it stands for the title (compared ignoring case).
    static let hiddenExtensions = ["ogg", "oga", "opus"]

    /// The TITLE tag; for a track without one (an empty or blank TITLE counts as none, see
    /// `TrackMetadata.title`), the file's name without its `.ogg`/`.oga`/`.opus` extension: an untagged
    /// `music/bgm1.ogg` is `bgm1`. `listed`: what the playlist that listed it called it (given for
    /// a stream, which has no file name), used when there is no TITLE tag. nil when there is none
    /// of them (a stream without a title).
    public static func shown(tag: String?, listed: String? = nil, filePath: String?) -> String? {
        if let tag, !tag.isEmpty { return tag }
        if let listed, !listed.isEmpty { return listed }
        guard let filePath, let name = filePath.split(separator: "/").last.map(String.init) else { return nil }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex,
            hiddenExtensions.contains(name[name.index(after: dot)...].lowercased())
        {
            return String(name[..<dot])
        }
        return name
    }
}
