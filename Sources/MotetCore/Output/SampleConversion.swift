/// Float samples to the integers devices take.
public enum SampleConversion {
    /// Float -> Int16 exactly as libvorbisfile's `ov_read` does: `lrintf(x * 32768)` (round to
    /// nearest, ties to even) clamped to [-32768, 32767]. NaN becomes -32768, as `lrintf` gives
    /// on x86.
    @inline(__always)
    public static func int16(_ x: Float) -> Int16 {
        let scaled = (x * 32768).rounded(.toNearestOrEven)
        if scaled >= 32767 { return 32767 }
        if !(scaled > -32768) { return -32768 }
        return Int16(scaled)
    }

    /// Converts `count` samples starting at `source` to little-endian Int16 at `destination`.
    @inline(__always)
    static func int16(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Int16>, count: Int) {
        for i in 0..<count { destination[i] = int16(source[i]).littleEndian }
    }

    /// Converts `frames` frames of `channels` samples, taking output channel `c` of each frame from
    /// input channel `order[c]` (a device whose channel order differs from WAV's).
    @inline(__always)
    static func int16(
        from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Int16>, frames: Int,
        channels: Int, order: UnsafePointer<Int>
    ) {
        for f in 0..<frames {
            let base = f * channels
            for c in 0..<channels { destination[base + c] = int16(source[base + order[c]]).littleEndian }
        }
    }
}
