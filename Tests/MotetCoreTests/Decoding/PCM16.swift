import Foundation

/// libvorbisfile's own float to 16-bit conversion (as in `ov_read`), to compare with `oggdec -R -b 16`.
enum PCM16 {
    static func int16(_ x: Float) -> Int16 {
        Int16(clamping: lrintf(x * 32768))
    }

    /// Samples as 16-bit little-endian bytes, like `oggdec -R -b 16 -e 0 -s 1` writes them.
    static func bytes(_ samples: [Float]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(samples.count * 2)
        for s in samples {
            let v = UInt16(bitPattern: int16(s))
            out.append(UInt8(v & 0xff))
            out.append(UInt8(v >> 8))
        }
        return out
    }

    /// 16-bit little-endian bytes as Int16 values.
    static func values(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}
