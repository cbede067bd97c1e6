#if canImport(Glibc)
import Glibc
#endif
import CVorbisFile

extension VorbisDecoder {
    /// Opens `path`. Throws why (a `DecoderError`) when it is missing, unreadable, empty, a directory, not
    /// Ogg, Ogg but not Vorbis, or has damaged headers.
    public convenience init(path: String) throws(DecoderError) {
        let file = try AudioFile.open(path)
        try self.init(path: path, fd: file.descriptor, size: file.size)
    }

    /// Opens the file `path` whose open descriptor is `fd` (`AudioFile.open`), which it owns from
    /// here on (closed on failure too).
    convenience init(path: String, fd: Int32, size: Int64) throws(DecoderError) {
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

        let ending = OggFileInspection.ending(fd: fd, fileSize: size)
        // Read as a stream because a later link is not Vorbis: it may be Opus, said as such.
        let chainsOpus = playsAsStream && OggFileInspection.chainsOpusLink(fd: fd, fileSize: size)
        try self.init(
            path: path, file: file, descriptor: descriptor, owner: nil, ending: ending, playsAsStream: playsAsStream, chainsOpus: chainsOpus)
    }
}
