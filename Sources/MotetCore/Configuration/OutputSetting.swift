/// `--output`: which sink plays the sound.
public enum OutputSetting: Sendable, Equatable {
    /// PulseAudio, then ALSA, else a one-line notice and ``null``.
    case auto
    /// PulseAudio (also PipeWire through pipewire-pulse).
    case pulse
    /// ALSA; `device` is the PCM name after `alsa:` (nil = "default").
    case alsa(device: String?)
    /// A WAVE file at `path`: 16-bit (`wav:PATH`) or 32-bit float (`wav-float:PATH`).
    case wav(path: String, float: Bool)
    /// Discards the sound, paced in real time (or as fast as possible with `--untimed`).
    case null
}
