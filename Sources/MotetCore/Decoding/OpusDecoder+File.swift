#if canImport(Glibc)
import Glibc
#endif
import COpusFile

extension OpusDecoder {
    /// Opens the Ogg Opus file `path`. Throws why (a `DecoderError`) when it is missing,
    /// unreadable, empty, a directory, or not Ogg Opus with sound headers.
    public convenience init(path: String) throws(DecoderError) {
        let file = try AudioFile.open(path)
        try self.init(path: path, fd: file.descriptor, size: file.size)
    }

    /// Opens the file `path` whose open descriptor is `fd` (`AudioFile.open`), which it owns from
    /// here on (closed on failure too).
    convenience init(path: String, fd: Int32, size: Int64) throws(DecoderError) {
        let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        descriptor.initialize(to: fd)
        var status: Int32 = 0
        var callbacks = Self.descriptorCallbacks
        var opened = op_open_callbacks(descriptor, &callbacks, nil, 0, &status)
        var playsAsStream = false
        if opened == nil, status != OP_EBADHEADER, status != OP_EVERSION, status != OP_EIMPL, lseek(fd, 0, SEEK_SET) == 0 {
            // Mapping every link failed (a later link is damaged, or is not Opus) but the first
            // link may be sound: play the file from the start as a stream, without seeking.
            callbacks.seek = nil
            callbacks.tell = nil
            var streamStatus: Int32 = 0
            opened = op_open_callbacks(descriptor, &callbacks, nil, 0, &streamStatus)
            playsAsStream = opened != nil
        }
        let ending = OggFileInspection.ending(fd: fd, fileSize: size)
        guard let opened else {
            // On failure libopusfile has not closed the source.
            close(fd)
            descriptor.deallocate()
            // Cut off before its first whole audio page, a download reads as bad timestamps.
            throw ending == .cutShort ? DecoderError.endsEarly : DecoderError.opus(status)
        }
        try self.init(path: path, file: opened, descriptor: descriptor, owner: nil, ending: ending, playsAsStream: playsAsStream)
    }

    /// libopusfile's I/O callbacks over the descriptor in the heap cell it is given; `close` stores
    /// -1 there, so the owner knows libopusfile closed it (see `FileDescriptorSource`).
    static var descriptorCallbacks: OpusFileCallbacks {
        OpusFileCallbacks(
            read: { source, buffer, count in
                guard let source, let buffer, count > 0 else { return 0 }
                let fd = source.load(as: Int32.self)
                while true {
                    let got = Glibc.read(fd, buffer, Int(count))
                    if got >= 0 { return Int32(got) }
                    if errno != EINTR { return -1 }
                }
            },
            seek: { source, offset, whence in
                guard let source else { return -1 }
                return lseek(source.load(as: Int32.self), off_t(offset), whence) < 0 ? -1 : 0
            },
            tell: { source in
                guard let source else { return -1 }
                return Int64(lseek(source.load(as: Int32.self), 0, SEEK_CUR))
            },
            close: { source in
                guard let source else { return 0 }
                let fd = source.load(as: Int32.self)
                source.storeBytes(of: -1, as: Int32.self)
                return fd >= 0 ? Glibc.close(fd) : 0
            })
    }
}

extension OpusDecoder {
    /// Opens a callback source named `name` (its URL, as shown). Throws `source.refusal`'s cause
    /// with libopusfile's code when libopusfile refuses it (its close callback is not called then).
    public convenience init(name: String, source: CallbackSource<OpusFileCallbacks>) throws(DecoderError) {
        let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        descriptor.initialize(to: -1)
        var callbacks = source.callbacks
        var status: Int32 = 0
        let opened = source.initial.withUnsafeBufferPointer { initial in
            op_open_callbacks(source.datasource, &callbacks, initial.baseAddress, initial.count, &status)
        }
        guard let opened else {
            descriptor.deallocate()
            throw DecoderError.network(source.refusal(status), code: status)
        }
        try self.init(
            path: name, file: opened, descriptor: descriptor, owner: source.owner, ending: .whole, playsAsStream: false,
            sourceFailure: source.failure)
    }
}
