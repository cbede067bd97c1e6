#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetNetwork

/// Finds the artwork for a track and caches it as a file named by a hash of its bytes.
///
/// The cache file gives consumers that need a URI (MPRIS `artUrl`, notification `image-path`) a
/// stable path: the same bytes always land in the same file, written once.
public struct ArtworkStore: Sendable {
    /// Where cached pictures go, e.g. `$XDG_CACHE_HOME/motet/artwork`.
    public let cacheDirectory: String

    /// Cover files looked for beside a track, in order of preference (names compared without case).
    static let coverFileNames = ["cover.jpg", "cover.png", "folder.jpg", "front.jpg"]
    /// Directory entries looked at when searching for a cover file.
    static let maximumDirectoryEntries = 10_000
    /// Where `d_name` starts in a `dirent` record.
    private static let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// The last directory searched for a cover file.
    private let coverSearch = CoverSearchCache()

    /// `cacheDirectory` (e.g. $XDG_CACHE_HOME/motet/artwork) is created 0700 on first store.
    public init(cacheDirectory: String) {
        self.cacheDirectory = cacheDirectory
    }

    /// embedded picture, else cover.jpg|cover.png|folder.jpg|front.jpg beside the track, else `defaultArtwork` file.
    /// Returns MotetEvents.Artwork with id = hex hash of bytes, path = cached file (written atomically: temp + rename, O_EXCL|O_NOFOLLOW on the temp), nil when none.
    ///
    /// The id is the SHA-256 of the bytes in hex. `path` is nil when the cache cannot be written;
    /// the bytes are still returned. Image files must be recognisable images (JPEG, PNG, GIF, WebP,
    /// BMP) of at most `PictureParser.maximumBytes`.
    public func artwork(embedded: EmbeddedPicture?, trackPath: String, defaultArtwork: String?) -> Artwork? {
        if let embedded, !embedded.bytes.isEmpty {
            return store(bytes: embedded.bytes, mime: embedded.mime)
        }
        // A URL has no folder to look in (and a local folder named like it is not its cover).
        if !WebAddress.isRemote(trackPath), let beside = coverSearch.cover(beside: trackPath), let image = Self.readImage(beside) {
            return store(bytes: image.bytes, mime: image.mime)
        }
        if let defaultArtwork, let image = Self.readImage(defaultArtwork) {
            return store(bytes: image.bytes, mime: image.mime)
        }
        return nil
    }

    // MARK: Finding pictures

    /// The preferred cover file in `directory` (a track's, see `FileSystem.directory(of:)`), if any.
    static func coverFile(in directory: String) -> String? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var best: (rank: Int, name: String)?
        var seen = 0
        while seen < maximumDirectoryEntries, let entry = readdir(dir) {
            seen += 1
            // Read the name in place: glibc's records are only `d_reclen` bytes long, so copying
            // the whole `dirent` (`entry.pointee`, 280 bytes) can read past the end of readdir's
            // buffer and fault (the soak test crashed here in a directory of 10,000 tracks).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: Self.direntNameOffset).assumingMemoryBound(to: CChar.self))
            guard name.utf8.count <= 10 else { continue }
            let lowered = String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
            if let rank = coverFileNames.firstIndex(of: lowered), rank < (best?.rank ?? Int.max) {
                best = (rank, name)
            }
        }
        guard let best else { return nil }
        return directory == "/" ? "/" + best.name : directory + "/" + best.name
    }

    /// The bytes and type of an image file: a regular file of at most `PictureParser.maximumBytes`
    /// whose first bytes are a known image format.
    static func readImage(_ path: String) -> (bytes: [UInt8], mime: String)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            info.st_size <= PictureParser.maximumBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        guard let mime = PictureParser.sniffImageType(bytes) else { return nil }
        return (bytes, mime)
    }

    // MARK: The cache

    /// The artwork for `bytes`, cached under its hash when possible.
    func store(bytes: [UInt8], mime: String) -> Artwork {
        let id = SHA256.hex(bytes)
        return Artwork(bytes: bytes, mime: mime, id: id, path: cachedFile(bytes: bytes, id: id, mime: mime))
    }

    /// The cache file holding `bytes`: an existing one of the right size, else a new one written to
    /// a private temporary file and renamed into place. Nil when the cache cannot be written.
    func cachedFile(bytes: [UInt8], id: String, mime: String) -> String? {
        let path = cacheDirectory + "/" + id + "." + Self.fileExtension(mime)
        var existing = stat()
        if lstat(path, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG, existing.st_size == bytes.count {
            return path
        }
        guard Self.makeDirectories(cacheDirectory) else { return nil }
        let temporary = cacheDirectory + "/." + id + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        var written = 0
        var ok = true
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    ok = false
                    return
                }
                written += n
            }
        }
        if close(fd) != 0 { ok = false }
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            return nil
        }
        return path
    }

    /// Creates `path` and its missing parents with mode 0700; true when it is a directory.
    static func makeDirectories(_ path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        var prefix = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(path.hasPrefix("/") ? prefix : String(prefix.dropFirst()), 0o700) != 0, errno != EEXIST {
                return false
            }
        }
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    static func fileExtension(_ mime: String) -> String {
        switch mime {
        case "image/jpeg", "image/jpg": "jpg"
        case "image/png": "png"
        case "image/gif": "gif"
        case "image/webp": "webp"
        case "image/bmp": "bmp"
        default: "img"
        }
    }
}
