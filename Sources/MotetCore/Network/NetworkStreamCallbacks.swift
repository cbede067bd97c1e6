#if canImport(Glibc)
import Glibc
#endif

/// libvorbisfile's and libopusfile's I/O over a `NetworkStream` (the data source is the stream,
/// unretained: its decoder owns it). C callbacks, so the layout each library wants is built by the
/// decoder from these functions (`read` for libvorbisfile, `readBytes` for libopusfile).
public enum NetworkStreamCallbacks {
    public static func read(_ buffer: UnsafeMutableRawPointer?, _ size: Int, _ count: Int, _ source: UnsafeMutableRawPointer?) -> Int {
        guard let buffer, let source, size > 0, count > 0 else { return 0 }
        let stream = Unmanaged<NetworkStream>.fromOpaque(source).takeUnretainedValue()
        let (wanted, overflow) = size.multipliedReportingOverflow(by: count)
        if overflow { return 0 }
        let got = stream.read(buffer, wanted)
        // libvorbisfile tells the end from an error by errno after a 0 return.
        if got < 0 {
            errno = EIO
            return 0
        }
        if got == 0 { errno = 0 }
        return got / size
    }

    /// Up to `count` bytes: how many, 0 at the end, -1 on failure (libopusfile's `op_read_func`).
    public static func readBytes(_ source: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32) -> Int32 {
        guard let buffer, let source, count > 0 else { return 0 }
        let got = Unmanaged<NetworkStream>.fromOpaque(source).takeUnretainedValue().read(buffer, Int(count))
        return got < 0 ? -1 : Int32(got)
    }

    public static func seek(_ source: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int32 {
        guard let source else { return -1 }
        return Unmanaged<NetworkStream>.fromOpaque(source).takeUnretainedValue().seek(offset: offset, whence: whence)
    }

    public static func close(_ source: UnsafeMutableRawPointer?) -> Int32 {
        guard let source else { return 0 }
        Unmanaged<NetworkStream>.fromOpaque(source).takeUnretainedValue().interrupt()
        return 0
    }

    public static func tell(_ source: UnsafeMutableRawPointer?) -> Int {
        guard let source else { return -1 }
        return Int(Unmanaged<NetworkStream>.fromOpaque(source).takeUnretainedValue().tell())
    }
}
