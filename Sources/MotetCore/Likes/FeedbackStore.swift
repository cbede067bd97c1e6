import Glibc
import MotetSystem

/// Likes and dislikes, remembered across runs in `DIRECTORY/feedback`.
///
/// The file is text, one rating per line (`liked<TAB>KEY`), rewritten atomically on every change
/// (a temporary file in the same directory, fsync, rename), so a crash leaves either the old or the
/// new file, never half of one. Each change re-reads the file first, so two players running at once
/// do not erase each other's ratings. Tracks are keyed by their tags when they have a title
/// (see `FeedbackKey`), so a renamed file keeps its rating; otherwise by canonical path.
/// Thread-safe.
public final class FeedbackStore: Sendable {
    /// A track's rating.
    public enum Rating: String, Sendable {
        case liked, disliked
    }

    /// Largest feedback file read.
    static let sizeLimit = 64 << 20
    private static let header = "# motet feedback 1: RATING<TAB>KEY; KEY is tags:TITLE|ARTISTS|ALBUM or path:PATH\n"

    /// The file the ratings live in.
    public let file: String
    private let directory: String
    private let ratings = Locked<[String: Rating]?>(nil)

    /// A store in `directory` (created, mode 0700, on the first change).
    public init(directory: String) {
        self.directory = directory
        self.file = (directory.hasSuffix("/") ? directory : directory + "/") + "feedback"
    }

    /// `$XDG_STATE_HOME/motet` when that variable holds an absolute path, else
    /// `~/.local/state/motet`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        XDGDirectories(environment: environment).stateHome + "/motet"
    }

    /// The rating of a track: by its tags when it has a title, then by its path. A network track
    /// (`path` nil) is known by its tags only: a station's URL is not a song.
    public func rating(path: String?, title: String?, artists: [String], album: String?) -> Rating? {
        let keys = Self.keys(path: path, title: title, artists: artists, album: album)
        return ratings.withLock { cache -> Rating? in
            if cache == nil { cache = (try? load()) ?? [:] }
            for key in keys {
                if let rating = cache?[key] { return rating }
            }
            return nil
        }
    }

    /// Sets (or with nil, removes: "unlike") the rating of a track and saves the file.
    ///
    /// The file is re-read and rewritten under an exclusive `flock` on the directory, so players
    /// running at once each keep their changes. If saving fails, the rating still holds for this
    /// run and the error says why it was not saved.
    public func set(_ rating: Rating?, path: String?, title: String?, artists: [String], album: String?) throws(FeedbackError) {
        let keys = Self.keys(path: path, title: title, artists: artists, album: album)
        guard !keys.isEmpty else {
            throw FeedbackError("motet: the song on air has no TITLE, so its rating cannot be saved (it holds until the song changes).")
        }
        try ratings.withLock { cache throws(FeedbackError) in
            var current = cache ?? [:]
            defer { cache = current }
            func apply(_ table: inout [String: Rating]) {
                for key in keys { table[key] = nil }
                if let rating { table[keys[0]] = rating }
            }
            apply(&current)
            if let failure = FileSystem.makeDirectories(directory) {
                throw FeedbackError("motet: cannot create \(DisplayText.quoted(directory)) for the ratings: \(failure.reason) (check the permissions of its parent).")
            }
            let lock = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if lock >= 0 { flock(lock, LOCK_EX) }
            defer { if lock >= 0 { close(lock) } }
            current = try load()
            apply(&current)
            try save(current)
        }
    }

    /// The primary key first (tags when there is a title), then the path key (none for a URL).
    private static func keys(path: String?, title: String?, artists: [String], album: String?) -> [String] {
        let byTags = FeedbackKey.tags(title: title, artists: artists, album: album)
        return [byTags, path.map(FeedbackKey.path)].compactMap { $0 }
    }

    private func load() throws(FeedbackError) -> [String: Rating] {
        let bytes: [UInt8]
        switch FileSystem.readFile(file, limit: Self.sizeLimit) {
        case .failure(let failure) where failure.code == ENOENT || failure.code == ENOTDIR:
            return [:]
        case .failure(let failure):
            throw FeedbackError("motet: cannot read the ratings in \(DisplayText.quoted(file)): \(failure.reason) (fix its permissions or move it away).")
        case .success(let b):
            bytes = b
        }
        var result: [String: Rating] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard line.first != UInt8(ascii: "#"), let tab = line.firstIndex(of: 9),
                let rating = Rating(rawValue: String(decoding: line[..<tab], as: UTF8.self))
            else { continue }
            let key = Self.unescape(String(decoding: line[(tab + 1)...], as: UTF8.self))
            if !key.isEmpty { result[key] = rating }
        }
        return result
    }

    private func save(_ ratings: [String: Rating]) throws(FeedbackError) {
        var text = Self.header
        for key in ratings.keys.sorted() {
            text += ratings[key]!.rawValue + "\t" + Self.escape(key) + "\n"
        }
        if let failure = FileSystem.writeAtomically(Array(text.utf8), to: file) {
            throw FeedbackError("motet: cannot save the ratings to \(DisplayText.quoted(file)): \(failure.reason) (check free space and that the directory is writable).")
        }
    }

    /// Backslash, tab, newline and carriage return written as `\\`, `\t`, `\n`, `\r`.
    private static func escape(_ key: String) -> String {
        var out = ""
        for c in key.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func unescape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let c = iterator.next() {
            guard c == "\\", let next = iterator.next() else {
                out.append(c)
                continue
            }
            switch next {
            case "t": out.append("\t")
            case "n": out.append("\n")
            case "r": out.append("\r")
            default: out.append(next)
            }
        }
        return String(out)
    }
}
