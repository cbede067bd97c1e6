import MotetSystem

/// Frame and time arithmetic that saturates instead of trapping: lengths and positions come from
/// files, and a damaged granule position can be any 64-bit number. The conversions between frames
/// and microseconds (the decoder's positions, the plugin ABI's unit) are `FrameTime`'s.
extension VorbisDecoder {
    static func micros(frames: Int64, rate: Int64) -> Int64 { FrameTime.microsecondsSaturating(frames: frames, rate: rate) }

    static func frames(micros: Int64, rate: Int64) -> Int64 { FrameTime.framesSaturating(microseconds: micros, rate: rate) }

    static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 { FrameTime.saturatingAdd(a, b) }
}
