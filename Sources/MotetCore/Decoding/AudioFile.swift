#if canImport(Glibc)
import Glibc
#endif

/// A local file opened for decoding: the checks every codec makes before its library sees the file.
enum AudioFile {
    /// Opens `path` read-only. Throws why (a `DecoderError`) when it is missing, unreadable, empty,
    /// a directory or not a regular file. The caller owns the descriptor.
    static func open(_ path: String) throws(DecoderError) -> (descriptor: Int32, size: Int64) {
        // O_NONBLOCK: opening a FIFO must not hang; it is cleared again for regular files.
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw DecoderError.openFailed(errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let e = errno
            close(fd)
            throw DecoderError.openFailed(errno: e)
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw kind == S_IFDIR
                ? DecoderError.isDirectory
                : DecoderError.notRegularFile
        }
        guard info.st_size > 0 else {
            close(fd)
            throw DecoderError.empty
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        // Read access is checked by open(2); reading a directory-like object fails here instead.
        var probe: UInt8 = 0
        guard pread(fd, &probe, 1, 0) == 1 else {
            let e = errno
            close(fd)
            throw DecoderError.unreadable(errno: e)
        }
        return (fd, Int64(info.st_size))
    }
}

/// Opens Ogg files and streams with the decoder their first packet names (never by file name).
public enum OggDecoding {
    /// Opens the local file `path`: an Ogg Opus file (its first packet is `OpusHead`) with
    /// `OpusDecoder`, anything else with `VorbisDecoder`, which says what a file that is not Ogg
    /// Vorbis really is.
    public static func open(path: String) throws(DecoderError) -> any AudioDecoder {
        let file = try AudioFile.open(path)
        if OggFileInspection.firstPacketIsOpusHead(fd: file.descriptor) {
            return try OpusDecoder(path: path, fd: file.descriptor, size: file.size)
        }
        return try VorbisDecoder(path: path, fd: file.descriptor, size: file.size)
    }

    /// The first bytes of a stream start an Ogg page whose first packet is `OpusHead`: it is Ogg
    /// Opus, whatever its name or content type says.
    public static func startsAsOpus(_ firstBytes: [UInt8]) -> Bool {
        OggFileInspection.firstPacketIsOpusHead(firstBytes)
    }
}
