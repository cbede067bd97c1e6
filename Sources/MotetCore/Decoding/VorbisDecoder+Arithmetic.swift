/// Frame and time arithmetic that saturates instead of trapping: lengths and positions come from
/// files, and a damaged granule position can be any 64-bit number.
extension VorbisDecoder {
    static func micros(frames: Int64, rate: Int64) -> Int64 {
        guard rate > 0 else { return 0 }
        let (whole, rest) = frames.quotientAndRemainder(dividingBy: rate)
        let (wholeMicros, overflow) = whole.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return frames < 0 ? Int64.min : Int64.max }
        return saturatingAdd(wholeMicros, rest * 1_000_000 / rate)
    }

    static func frames(micros: Int64, rate: Int64) -> Int64 {
        let (whole, rest) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        let (wholeFrames, overflow) = whole.multipliedReportingOverflow(by: rate)
        if overflow { return micros < 0 ? Int64.min : Int64.max }
        return saturatingAdd(wholeFrames, rest * rate / 1_000_000)
    }

    static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
    }
}
