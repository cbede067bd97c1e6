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

    /// Converts `count` samples starting at `source` to little-endian Int16 at `destination`:
    /// eight at a time in vector registers (`int16(_:)` per sample called libm's `rintf` through
    /// the PLT, a tenth of the player's CPU on PulseAudio), the same values as `int16(_:)`.
    public static func int16(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Int16>, count: Int) {
        var i = 0
        while i + 8 <= count {
            let v = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Float>.self)
            let converted = int16(v)
            UnsafeMutableRawPointer(destination + i).storeBytes(of: converted, as: SIMD8<Int16>.self)
            i += 8
        }
        while i < count {
            destination[i] = int16(source[i]).littleEndian
            i += 1
        }
    }

    /// `int16(_:)` of eight samples, little-endian. Clamped first (NaN to -32768, as `int16(_:)`),
    /// then rounded to nearest, ties to even, by adding 1.5 * 2^23: the sum's last mantissa bits
    /// are then the integer (exact below 2^22), read from the bit pattern.
    @inline(__always)
    static func int16(_ samples: SIMD8<Float>) -> SIMD8<Int16> {
        var scaled = samples * 32768
        scaled.replace(with: 32767, where: scaled .>= 32767)
        scaled.replace(with: -32768, where: .!(scaled .> -32768))
        let magic: Float = 12_582_912  // 1.5 * 2^23
        let bits = unsafeBitCast(scaled + magic, to: SIMD8<Int32>.self) &- Int32(bitPattern: magic.bitPattern)
        var values = SIMD8<Int16>(truncatingIfNeeded: bits)
        #if _endian(big)
        for i in values.indices { values[i] = values[i].littleEndian }
        #endif
        return values
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
