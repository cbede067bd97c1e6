import Glibc
import MotetSystem

/// Turns the command line's `FILE|DIR|PLAYLIST|URL` inputs into the list of tracks to play: paths
/// and `http(s)://` URLs.
///
/// - A file is kept as given (whatever its name: the decoder tells Ogg Vorbis from Ogg Opus by its
///   first packet, and says if it is neither), except
///   playlists: `.m3u`/`.m3u8`, `.pls` and `.xspf` (any case).
/// - A directory is searched recursively for `*.ogg`/`*.oga`/`*.opus` regular files (any case), each
///   directory's entries in ``NaturalSort`` order with subdirectories in their place; hidden entries
///   (names starting with `.`) are skipped, and a directory reached twice (a link loop) is skipped
///   with a warning.
/// - A playlist's entries (``PlaylistReader``) may be files, directories, URLs or other playlists.
///   In a local playlist they are relative to the playlist's directory; `file://` URLs are paths.
///   A playlist that includes itself, directly or through others, is reported and not followed again.
/// - An `http://` or `https://` URL is a track (a stream or a file on a server), except when its
///   name ends in `.m3u`, `.m3u8`, `.pls` or `.xspf`: that is a remote playlist, fetched through
///   `fetch` and expanded; its entries resolve against its final URL (after redirects), and its
///   format comes from the Content-Type when that names a playlist type, else from the name. A URL
///   whose name does not say "playlist" is never fetched here (it may be a live stream that never
///   ends): the decoder is the one to open it, once; if its server answers with a playlist's
///   content type, it is read then (``expandPlayed(_:playlist:origin:budget:fetch:)``).
/// - `-` reads a list from standard input (as `mpv --playlist=-`): one entry per line, read like
///   an `.m3u` playlist's entries relative to the current directory. A file named `-` is `./-`.
/// - Other URL schemes are refused.
/// - Every input or entry that is missing, unreadable or unfetchable gives one warning line (naming
///   it and what to do) and is skipped; the rest plays. URLs in messages have no `user:password@`.
public enum InputExpander {
    /// Largest playlist read.
    static let playlistSizeLimit = 16 << 20
    /// Largest remote playlist fetched. Smaller than a local one's limit: a live stream given a
    /// playlist's name would otherwise be downloaded for 16 MiB (17 minutes at 128 kbit/s) before
    /// being refused; 1 MiB of `.m3u` is still some 10,000 entries.
    static let remotePlaylistSizeLimit = 1 << 20
    /// Most remote playlists fetched in one expansion: cycles are caught, but a playlist listing
    /// another one many times, which lists a third many times… would otherwise be fetched
    /// exponentially often.
    static let remotePlaylistFetchLimit = 256
    /// Deepest nesting of playlists (local and remote) and directories followed.
    static let depthLimit = 64

    /// The name messages give the list read from standard input.
    static let standardInputName = "standard input"

    /// What a fetch returns: the URL it ended at (after redirects), the Content-Type if any, and the body.
    public typealias Document = (finalURL: String, contentType: String?, body: [UInt8])

    /// Fetches a URL (given with its credentials, if any), at most `limit` bytes of body; an
    /// error's description is one line saying what went wrong.
    public typealias Fetch = (_ url: String, _ limit: Int) -> Result<Document, any Error>

    /// The tracks (paths and http(s) URLs), in order, and one warning line (starting with
    /// `motet: `) per problem. `standardInput` is called once, for the first `-` input, and returns
    /// all the bytes. `fetch` gets remote playlists; without it they are reported and skipped.
    public static func expand(
        _ inputs: [String], standardInput: () throws -> [UInt8] = InputExpander.readStandardInput, fetch: Fetch? = nil
    ) -> (files: [String], warnings: [String]) {
        let walk = walk(inputs, standardInput: standardInput, fetch: fetch)
        return (walk.files, walk.warnings)
    }

    /// `expand`, with the title each file's playlist entry gave it (nil for most) and the
    /// playlists it was listed in (outermost first: a line about the file can name them).
    public static func expandWithTitles(
        _ inputs: [String], standardInput: () throws -> [UInt8] = InputExpander.readStandardInput, fetch: Fetch? = nil
    ) -> (files: [String], titles: [String?], origins: [[String]], warnings: [String]) {
        let walk = walk(inputs, standardInput: standardInput, fetch: fetch)
        return (walk.files, walk.titles, walk.origins, walk.warnings)
    }

    private static func walk(_ inputs: [String], standardInput: () throws -> [UInt8], fetch: Fetch?) -> Walk {
        var walk = Walk(fetch: fetch)
        var standardInputRead = false
        for input in inputs {
            if input == "-" {
                if standardInputRead {
                    walk.warn(standardInputName, "read once already; a second '-' adds nothing.", nil)
                    continue
                }
                standardInputRead = true
                do {
                    walk.addList(try standardInput(), named: standardInputName, base: .directory(""), format: .m3u, depth: 0)
                } catch {
                    let reason = (error as? FileSystem.Failure)?.reason ?? "\(error)"
                    walk.warn(standardInputName, reason + " (pipe a list of files into motet -).", nil)
                }
                continue
            }
            switch PlaylistReader.resolve(input, against: .directory("")) {
            case .path(let path): walk.add(path, context: nil, depth: 0)
            case .url(let address): walk.addURL(address, context: nil, depth: 0)
            case .unsupported(let reason): walk.warn(input, reason, nil)
            }
        }
        return walk
    }

    /// Everything on file descriptor 0 (at most `playlistSizeLimit` bytes).
    public static func readStandardInput() throws -> [UInt8] {
        try FileSystem.readFile("/dev/stdin", limit: playlistSizeLimit).get()
    }

    /// True for `.ogg`, `.oga` and `.opus` (any case).
    static func isOggName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".ogg") || lower.hasSuffix(".oga") || lower.hasSuffix(".opus")
    }

    /// The expansion in progress.
    struct Walk {
        let fetch: Fetch?
        var files: [String] = []
        /// For each file, the playlists open when it was found (`openAddresses`).
        var origins: [[String]] = []
        /// For each file, the title its playlist entry gave it, if any.
        var titles: [String?] = []
        var warnings: [String] = []
        /// Playlists being read right now (to catch cycles).
        var openPlaylists: [FileSystem.Identity] = []
        /// Directories being searched right now (to catch link loops).
        var openDirectories: [FileSystem.Identity] = []
        /// Playlists being read right now: remote ones by URL (asked for and final, to catch
        /// cycles), local ones by their name as messages show it.
        var openAddresses: [String] = []
        /// Remote playlists fetched so far, and whether reaching the limit was reported.
        var fetchCount = 0
        var fetchLimitReported = false

        /// Where an entry came from, for messages: a playlist line.
        struct Context {
            var playlist: String
            var line: Int
        }

        mutating func addTrack(_ path: String) {
            files.append(path)
            origins.append(openAddresses)
            titles.append(nil)
        }

        mutating func warn(_ path: String, _ what: String, _ context: Context?) {
            var text = "motet: "
            if let context { text += DisplayText.escaped(context.playlist) + ":\(context.line): " }
            text += "skipping " + DisplayText.quoted(path) + ": " + what
            warnings.append(text)
        }

        /// A line about a playlist, not about one entry.
        mutating func note(_ playlist: String, _ note: PlaylistReader.Note) {
            warnings.append("motet: " + DisplayText.escaped(playlist) + ":\(note.line): " + note.text)
        }

        mutating func add(_ path: String, context: Context?, depth: Int) {
            if path.isEmpty {
                warn(path, "an empty name is not a file; remove it.", context)
                return
            }
            let status: (kind: FileSystem.Kind, identity: FileSystem.Identity)
            switch FileSystem.status(path) {
            case .failure(let failure):
                let advice = failure.code == ENOENT ? "check the name and path" : "check the path and its permissions"
                warn(path, failure.reason + " (" + advice + ").", context)
                return
            case .success(let s):
                status = s
            }
            switch status.kind {
            case .directory:
                addDirectory(path, identity: status.identity, context: context, depth: depth, named: true)
            case .regular, .other:
                if let failure = FileSystem.readable(path) {
                    warn(path, failure.reason + " (make it readable, e.g. chmod a+r).", context)
                    return
                }
                if status.kind == .regular, let format = PlaylistReader.Format(name: path) {
                    addPlaylist(path, identity: status.identity, format: format, context: context, depth: depth)
                } else {
                    addTrack(path)
                }
            }
        }

        /// `named`: the directory was an input or a playlist entry, not found while searching.
        mutating func addDirectory(_ path: String, identity: FileSystem.Identity, context: Context?, depth: Int, named: Bool) {
            guard depth < InputExpander.depthLimit else {
                warn(path, "nested too deeply (more than \(InputExpander.depthLimit) levels).", context)
                return
            }
            guard !openDirectories.contains(identity) else {
                warn(path, "a link back to a directory that contains it (a loop); not following it.", context)
                return
            }
            let names: [String]
            switch FileSystem.listDirectory(path) {
            case .failure(let failure):
                warn(path, failure.reason + " (make the directory readable, e.g. chmod a+rx).", context)
                return
            case .success(let list):
                names = list.filter { !$0.hasPrefix(".") }.sorted(by: NaturalSort.less)
            }
            openDirectories.append(identity)
            defer { openDirectories.removeLast() }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            let before = files.count
            for name in names {
                let child = prefix + name
                guard case .success(let status) = FileSystem.status(child) else { continue }
                switch status.kind {
                case .directory:
                    addDirectory(child, identity: status.identity, context: nil, depth: depth + 1, named: false)
                case .regular where InputExpander.isOggName(name):
                    if let failure = FileSystem.readable(child) {
                        warn(child, failure.reason + " (make it readable, e.g. chmod a+r).", nil)
                    } else {
                        addTrack(child)
                    }
                default:
                    continue
                }
            }
            if files.count == before && named {
                warn(path, "no .ogg, .oga or .opus files in this directory.", context)
            }
        }

        mutating func addPlaylist(
            _ path: String, identity: FileSystem.Identity, format: PlaylistReader.Format, context: Context?, depth: Int
        ) {
            if openPlaylists.contains(identity) {
                warn(path, "this playlist includes itself; not following it again.", context)
                return
            }
            guard depth < InputExpander.depthLimit else {
                warn(path, "playlists nested too deeply (more than \(InputExpander.depthLimit) levels).", context)
                return
            }
            let bytes: [UInt8]
            switch FileSystem.readFile(path, limit: InputExpander.playlistSizeLimit) {
            case .failure(let failure):
                warn(path, failure.reason + " (check the playlist).", context)
                return
            case .success(let b):
                bytes = b
            }
            openPlaylists.append(identity)
            openAddresses.append(DisplayText.escaped(path))
            defer {
                openPlaylists.removeLast()
                openAddresses.removeLast()
            }
            addList(bytes, named: path, base: .directory(PlaylistReader.directory(of: path)), format: format, depth: depth)
        }

        /// The entries of a playlist (or of the list on standard input) in `format`, relative to
        /// `base`.
        mutating func addList(
            _ bytes: [UInt8], named path: String, base: PlaylistReader.Base, format: PlaylistReader.Format, depth: Int
        ) {
            let (entries, notes) = format.read(bytes)
            var pending = notes[...]
            for entry in entries {
                while let first = pending.first, first.line < entry.line {
                    note(path, first)
                    pending = pending.dropFirst()
                }
                let here = Context(playlist: path, line: entry.line)
                let before = files.count
                defer {
                    // An entry that is one track (or a playlist of one) is called what the list calls it.
                    if files.count == before + 1, titles[before] == nil { titles[before] = entry.title }
                }
                switch PlaylistReader.resolve(entry.text, against: base, uriReference: format.entriesAreURIs) {
                case .path(let resolved):
                    if case .address = base {
                        addLocalFileOfRemotePlaylist(resolved, context: here, depth: depth + 1)
                    } else {
                        add(resolved, context: here, depth: depth + 1)
                    }
                case .url(let address):
                    addURL(address, context: here, depth: depth + 1)
                case .unsupported(let reason):
                    warn(entry.text, reason, here)
                }
            }
            for rest in pending { note(path, rest) }
            // A list whose lines were refused has had its say (an HLS playlist, a damaged .pls).
            if entries.isEmpty && notes.isEmpty {
                warn(path, "it lists nothing (no entries); add some, or check that it is the right file.", nil)
            }
        }
    }
}
