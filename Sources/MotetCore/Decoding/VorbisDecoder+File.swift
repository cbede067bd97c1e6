#if canImport(Glibc)
import Glibc
#endif
import CVorbisFile

extension VorbisDecoder {
    /// Opens `path`. Throws why (a `DecoderError`) when it is missing, unreadable, empty, a directory, not
    /// Ogg, Ogg but not Vorbis, or has damaged headers.
    public convenience init(path: String) throws(DecoderError) {
        // O_NONBLOCK: opening a FIFO must not hang; it is cleared again for regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
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

        let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        descriptor.initialize(to: fd)
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        var status = ov_open_callbacks(descriptor, file, nil, 0, FileDescriptorSource.callbacks)
        var playsAsStream = false
        if status != 0, descriptor.pointee >= 0,
            OggFileInspection.describeNonVorbis(fd: fd) == OggFileInspection.vorbisDescription, lseek(fd, 0, SEEK_SET) == 0,
            ov_open_callbacks(descriptor, file, nil, 0, FileDescriptorSource.streamingCallbacks) == 0
        {
            // Mapping every link failed (a later link is damaged) but the first link is sound:
            // play the file from the start as a stream, without seeking or a known duration.
            status = 0
            playsAsStream = true
        }
        guard status == 0 else {
            // On failure libvorbisfile has not closed the source (and cleared its own state).
            let what = OggFileInspection.describeNonVorbis(fd: fd)
            if descriptor.pointee >= 0 { close(descriptor.pointee) }
            descriptor.deallocate()
            file.deallocate()
            guard let what, status == OV_ENOTVORBIS || status == OV_EBADHEADER || status == OV_ENOTAUDIO || status == OV_EREAD
            else { throw DecoderError.vorbis(status) }
            switch what {
            case OggFileInspection.vorbisDescription:
                throw DecoderError.damagedHeaders(status)
            case "not an Ogg file":
                throw DecoderError.notOgg(status)
            default:
                throw DecoderError.notVorbis(status, what: what)
            }
        }

        let ending = OggFileInspection.ending(fd: fd, fileSize: Int64(info.st_size))
        try self.init(path: path, file: file, descriptor: descriptor, owner: nil, ending: ending, playsAsStream: playsAsStream)
    }
}
