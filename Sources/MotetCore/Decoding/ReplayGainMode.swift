/// Which ReplayGain value the player applies (`--replaygain track|album|off`).
public enum ReplayGainMode: String, Sendable {
    /// The track's own gain (falls back to the album gain when the track has none).
    case track
    /// The album's gain (falls back to the track gain when the album has none).
    case album
    /// No gain: scale 1.
    case off
}
