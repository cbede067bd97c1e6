/// `--replaygain track|album|off`: which ReplayGain value the player applies. The one type for it:
/// the configuration parses it, the decoder applies it (`ReplayGainTags.scale(_:)`).
public enum ReplayGainMode: String, Sendable, CaseIterable {
    /// The track's own gain (falls back to the album gain when the track has none). The default.
    case track
    /// The album's gain (falls back to the track gain when the album has none).
    case album
    /// No gain: scale 1.
    case off
}
