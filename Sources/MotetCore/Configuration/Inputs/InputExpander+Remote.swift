import MotetEvents
import MotetSystem
import MotetNetwork

extension InputExpander.Walk {
    /// An http(s) URL: a remote playlist when its name says so, else a track.
    mutating func addURL(_ address: WebAddress, context: Context?, depth: Int) {
        guard let format = PlaylistReader.Format(name: address.lowercasedFileName) else {
            addTrack(address.text)
            return
        }
        addRemotePlaylist(address, nameFormat: format, context: context, depth: depth)
    }

    mutating func addRemotePlaylist(
        _ address: WebAddress, nameFormat: PlaylistReader.Format, context: Context?, depth: Int
    ) {
        // Identity for cycles: the URL without credentials or fragment (a playlist reached with
        // and without a user name is the same playlist).
        let shown = address.displayText
        if openAddresses.contains(shown) {
            warn(shown, "this playlist includes itself; not following it again.", context)
            return
        }
        guard depth < InputExpander.depthLimit else {
            warn(shown, "playlists nested too deeply (more than \(InputExpander.depthLimit) levels).", context)
            return
        }
        guard let fetch else {
            warn(shown, "this build cannot fetch remote playlists; download it and play the file.", context)
            return
        }
        guard fetchCount < InputExpander.remotePlaylistFetchLimit else {
            if !fetchLimitReported {
                fetchLimitReported = true
                warn(
                    shown, "more than \(InputExpander.remotePlaylistFetchLimit) remote playlists in one run; "
                        + "not fetching this one or any other (give fewer playlists).", context)
            }
            return
        }
        fetchCount += 1
        let document: InputExpander.Document
        switch fetch(address.text, InputExpander.remotePlaylistSizeLimit) {
        case .failure(let error):
            warn(shown, InputExpander.sentence("\(error)"), context)
            return
        case .success(let d):
            document = d
        }
        let final = WebAddress(document.finalURL) ?? address
        if final.displayText != shown && openAddresses.contains(final.displayText) {
            warn(shown, "this playlist includes itself (through \(final.displayText)); not following it again.", context)
            return
        }
        let type = document.contentType.map { PlaylistReader.trimmed(Substring($0)).lowercased() } ?? ""
        if type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") {
            warn(shown, "the server sent a web page (\(type.prefix(60))), not a playlist; check the URL.", context)
            return
        }
        let typeFormat = document.contentType.flatMap(PlaylistReader.Format.init(contentType:))
        // Named like a playlist, but the server sends audio: a track after all (the decoder opens
        // it again and says what it is). Told by the bytes, not the type: servers label .m3u files
        // audio/ogg or audio/mpeg as often as audio/x-mpegurl.
        if typeFormat == nil && InputExpander.looksLikeAudio(document.body) {
            addTrack(address.text)
            return
        }
        let format = typeFormat
            ?? PlaylistReader.Format(name: final.lowercasedFileName) ?? nameFormat
        let identities = final.displayText == shown ? [shown] : [shown, final.displayText]
        openAddresses += identities
        defer { openAddresses.removeLast(identities.count) }
        addList(document.body, named: shown, base: .address(final), format: format, depth: depth)
    }
}

extension InputExpander.Walk {
    /// A `file://` entry of a remote playlist: a regular file only. A directory (`file:///` would
    /// search the whole disk) or a device (`/dev/zero`) named by a server is refused, as mpv
    /// refuses local entries in remote playlists.
    mutating func addLocalFileOfRemotePlaylist(_ path: String, context: Context, depth: Int) {
        if case .success(let status) = FileSystem.status(path), status.kind != .regular {
            warn(path, "a remote playlist may name local files but not directories or devices; play it yourself if you trust it.", context)
            return
        }
        add(path, context: context, depth: depth)
    }
}

extension InputExpander {
    /// An Ogg, FLAC or tagged MP3 start, or a NUL in the first KiB (no text playlist has one).
    static func looksLikeAudio(_ body: [UInt8]) -> Bool {
        for magic in ["OggS", "fLaC", "ID3"] where body.starts(with: Array(magic.utf8)) { return true }
        return body.prefix(1024).contains(0)
    }

    /// `text` as one line ending in a full stop.
    static func sentence(_ text: String) -> String {
        let line = DisplayText.escaped(PlaylistReader.trimmed(Substring(text)))
        return line.hasSuffix(".") || line.hasSuffix(")") ? line : line + "."
    }
}
