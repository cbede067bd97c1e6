#if canImport(Glibc)
import Glibc
#endif
import CVorbisFile

/// libvorbisfile's I/O callbacks over a file descriptor (read/seek/close/tell), so the decoder never
/// goes through `FILE*` or `ov_fopen`.
///
/// The data source is a heap cell holding the descriptor. `close` (called by `ov_clear`) closes it and
/// stores -1, so the owner can tell whether libvorbisfile already closed it: when
/// `ov_open_callbacks` fails, libvorbisfile does not close the source and the owner must.
enum FileDescriptorSource {
    static var callbacks: ov_callbacks {
        ov_callbacks(
            read_func: { buffer, size, count, source in
                guard let buffer, let source, size > 0, count > 0 else { return 0 }
                let fd = source.load(as: Int32.self)
                let (wanted, overflow) = size.multipliedReportingOverflow(by: count)
                if overflow { return 0 }
                while true {
                    let got = Glibc.read(fd, buffer, wanted)
                    if got >= 0 {
                        // libvorbisfile tells end of file from an error by errno after a 0 return.
                        if got == 0 { errno = 0 }
                        return got / size
                    }
                    if errno != EINTR { return 0 }
                }
            },
            seek_func: { source, offset, whence in
                guard let source else { return -1 }
                return lseek(source.load(as: Int32.self), off_t(offset), whence) < 0 ? -1 : 0
            },
            close_func: { source in
                guard let source else { return 0 }
                let fd = source.load(as: Int32.self)
                source.storeBytes(of: -1, as: Int32.self)
                return fd >= 0 ? close(fd) : 0
            },
            tell_func: { source in
                guard let source else { return -1 }
                return Int(lseek(source.load(as: Int32.self), 0, SEEK_CUR))
            })
    }

    /// The same without seeking: libvorbisfile then reads the file as a stream, link after link,
    /// without mapping the whole file first (which a damaged later link can make fail).
    static var streamingCallbacks: ov_callbacks {
        var streaming = callbacks
        streaming.seek_func = nil
        return streaming
    }
}
