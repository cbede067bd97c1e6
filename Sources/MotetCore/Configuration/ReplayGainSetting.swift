/// `--replaygain`: which ReplayGain tags adjust the loudness.
public enum ReplayGainSetting: String, Sendable, CaseIterable {
    /// `REPLAYGAIN_TRACK_GAIN` / `_PEAK` (the default).
    case track
    /// `REPLAYGAIN_ALBUM_GAIN` / `_PEAK`, falling back to the track values.
    case album
    /// No adjustment.
    case off
}
