#if canImport(Glibc)
import Glibc
#endif
import MotetEvents

/// The REPLAYGAIN_* comments of a link (or an Opus link's R128_* gains, +5 dB: `parseR128Gain`):
/// gains in dB, peaks as linear sample magnitudes (1.0 = full scale). Values that do not parse,
/// are not finite or are absurd are left out (nil).
public struct ReplayGainTags: Sendable, Equatable {
    /// REPLAYGAIN_TRACK_GAIN, in dB.
    public var trackGain: Double?
    /// REPLAYGAIN_TRACK_PEAK, linear.
    public var trackPeak: Double?
    /// REPLAYGAIN_ALBUM_GAIN, in dB.
    public var albumGain: Double?
    /// REPLAYGAIN_ALBUM_PEAK, linear.
    public var albumPeak: Double?

    /// Tags as given (parsing and sanity checks happen when they are read from a file).
    public init(trackGain: Double? = nil, trackPeak: Double? = nil, albumGain: Double? = nil, albumPeak: Double? = nil) {
        self.trackGain = trackGain
        self.trackPeak = trackPeak
        self.albumGain = albumGain
        self.albumPeak = albumPeak
    }

    /// Linear scale for the mode, with clipping prevention from the peak tags (scale*peak <= 1).
    /// 1.0 when tags are absent or mode is .off.
    ///
    /// `.track` uses the track gain and peak, or the album's when the track has no gain; `.album`
    /// the other way round. A peak without a gain changes nothing.
    public func scale(_ mode: ReplayGainMode) -> Float {
        let chosen: (gain: Double, peak: Double?)
        switch mode {
        case .off:
            return 1
        case .track:
            if let trackGain { chosen = (trackGain, trackPeak) } else if let albumGain { chosen = (albumGain, albumPeak) } else { return 1 }
        case .album:
            if let albumGain { chosen = (albumGain, albumPeak) } else if let trackGain { chosen = (trackGain, trackPeak) } else { return 1 }
        }
        var scale = pow(10, chosen.gain / 20)
        if let peak = chosen.peak, peak > 0, scale * peak > 1 { scale = 1 / peak }
        return Float(scale)
    }

    /// Gains beyond this many dB either way are treated as damaged tags.
    static let gainLimitDB = 60.0
    /// Peaks above this are treated as damaged tags (real peaks of float files may exceed 1 a little).
    static let peakLimit = 100.0

    /// Parses a gain such as "-6.54 dB", "+1.2dB" or "0.5"; nil when it is not a sane number.
    static func parseGain(_ text: String) -> Double? {
        guard let value = parseNumber(text, allowingUnit: true), abs(value) <= gainLimitDB else { return nil }
        return value
    }

    /// How many dB ReplayGain's reference level (89 dB SPL, about −18 LUFS) lies above EBU R128's
    /// −23 LUFS, which Opus's R128_* gains aim at: an R128 gain plus this is a ReplayGain gain.
    static let r128ToReplayGainDB = 5.0

    /// Parses an Opus R128_TRACK_GAIN or R128_ALBUM_GAIN (RFC 7845 5.2.1: a signed decimal
    /// integer of 1/256 dB, such as "-1536", against −23 LUFS) into a ReplayGain gain in dB:
    /// "-1536" (−6 dB to reach −23 LUFS) is −1 dB to reach ReplayGain's −18 LUFS.
    static func parseR128Gain(_ text: String) -> Double? {
        guard text.utf8.count <= 16, let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || (first >= 48 && first <= 57),
            let q8 = Int(text), (-32768...32767).contains(q8)
        else { return nil }
        let gain = Double(q8) / 256 + r128ToReplayGainDB
        return abs(gain) <= gainLimitDB ? gain : nil
    }

    /// Parses a peak such as "0.987654"; nil when it is not a sane positive number.
    static func parsePeak(_ text: String) -> Double? {
        guard let value = parseNumber(text, allowingUnit: false), value > 0, value <= peakLimit else { return nil }
        return value
    }

    private static func parseNumber(_ text: String, allowingUnit: Bool) -> Double? {
        guard text.utf8.count <= 64 else { return nil }
        var s = Substring(text)
        func trim() {
            while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
            while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        }
        trim()
        if allowingUnit, s.count >= 2, s.suffix(2).lowercased() == "db" {
            s.removeLast(2)
            trim()
        }
        // Only plain decimal notation: no "nan", "inf" or hexadecimal floats.
        guard !s.isEmpty, s.allSatisfy({ "0123456789+-.eE".contains($0) }), let value = Double(s), value.isFinite else {
            return nil
        }
        return value
    }
}
