import Glibc

/// Turns the command line's `FILE|DIR|PLAYLIST` inputs into the list of files to play.
///
/// - A file is kept as given (whatever its name: the decoder says if it is not Ogg Vorbis), except
///   `.m3u`/`.m3u8` files, which are playlists.
/// - A directory is searched recursively for `*.ogg`/`*.oga` regular files (any case), each
///   directory's entries in ``NaturalSort`` order with subdirectories in their place; hidden entries
///   (names starting with `.`) are skipped, and a directory reached twice (a link loop) is skipped
///   with a warning.
/// - A playlist lists one entry per line; entries are relative to the playlist's directory,
///   `file://` URLs are understood, blank lines and `#` lines (comments, `#EXTM3U`, `#EXTINF`) are
///   skipped, CRLF is fine. Entries may be files, directories or other playlists; a playlist that
///   includes itself, directly or through others, is reported and not followed again.
/// - `-` reads a list from standard input (as `mpv --playlist=-`): one entry per line, read like
///   a playlist's entries relative to the current directory. A file named `-` is `./-`.
/// - A `file://` URL is a path; other URLs are reported (Motet plays local files only).
/// - Every input or entry that is missing or unreadable gives one warning line (naming it and what to
///   do) and is skipped.
public enum InputExpander {
    /// Largest playlist read.
    static let playlistSizeLimit = 16 << 20
    /// Deepest nesting of playlists and directories followed.
    static let depthLimit = 64

    /// The name messages give the list read from standard input.
    static let standardInputName = "standard input"

    /// The playable files, in order, and one warning line (starting with `motet: `) per problem.
    /// `standardInput` is called once, for the first `-` input, and returns all the bytes.
    public static func expand(
        _ inputs: [String], standardInput: () throws -> [UInt8] = InputExpander.readStandardInput
    ) -> (files: [String], warnings: [String]) {
        var walk = Walk()
        var standardInputRead = false
        for input in inputs {
            if input == "-" {
                if standardInputRead {
                    walk.warn(standardInputName, "read once already; a second '-' adds nothing.", nil)
                    continue
                }
                standardInputRead = true
                do {
                    walk.addList(try standardInput(), named: standardInputName, directory: "", depth: 0)
                } catch {
                    let reason = (error as? FileSystem.Failure)?.reason ?? "\(error)"
                    walk.warn(standardInputName, reason + " (pipe a list of files into motet -).", nil)
                }
                continue
            }
            switch PlaylistReader.resolve(input, relativeTo: "") {
            case .path(let path): walk.add(path, context: nil, depth: 0)
            case .unsupported(let reason): walk.warn(input, reason, nil)
            }
        }
        return (walk.files, walk.warnings)
    }

    /// Everything on file descriptor 0 (at most `playlistSizeLimit` bytes).
    public static func readStandardInput() throws -> [UInt8] {
        try FileSystem.readFile("/dev/stdin", limit: playlistSizeLimit).get()
    }

    /// True for `.m3u` and `.m3u8` (any case).
    static func isPlaylist(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8")
    }

    /// True for `.ogg` and `.oga` (any case).
    static func isOggName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".ogg") || lower.hasSuffix(".oga")
    }

    /// The expansion in progress.
    private struct Walk {
        var files: [String] = []
        var warnings: [String] = []
        /// Playlists being read right now (to catch cycles).
        var openPlaylists: [FileSystem.Identity] = []
        /// Directories being searched right now (to catch link loops).
        var openDirectories: [FileSystem.Identity] = []

        /// Where an entry came from, for messages: a playlist line.
        struct Context {
            var playlist: String
            var line: Int
        }

        mutating func warn(_ path: String, _ what: String, _ context: Context?) {
            var text = "motet: "
            if let context { text += DisplayText.escaped(context.playlist) + ":\(context.line): " }
            text += "skipping " + DisplayText.quoted(path) + ": " + what
            warnings.append(text)
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
                if status.kind == .regular && InputExpander.isPlaylist(path) {
                    addPlaylist(path, identity: status.identity, context: context, depth: depth)
                } else {
                    files.append(path)
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
                        files.append(child)
                    }
                default:
                    continue
                }
            }
            if files.count == before && named {
                warn(path, "no .ogg or .oga files in this directory.", context)
            }
        }

        mutating func addPlaylist(_ path: String, identity: FileSystem.Identity, context: Context?, depth: Int) {
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
            defer { openPlaylists.removeLast() }
            addList(bytes, named: path, directory: PlaylistReader.directory(of: path), depth: depth)
        }

        /// The entries of a playlist (or of the list on standard input), `directory` being where
        /// relative entries start ("" for the current directory).
        mutating func addList(_ bytes: [UInt8], named path: String, directory: String, depth: Int) {
            for entry in PlaylistReader.entries(bytes) {
                let here = Context(playlist: path, line: entry.line)
                switch PlaylistReader.resolve(entry.text, relativeTo: directory) {
                case .path(let resolved):
                    add(resolved, context: here, depth: depth + 1)
                case .unsupported(let reason):
                    warn(entry.text, reason, here)
                }
            }
        }
    }
}
