/// The output the user chose with `--output auto|pulse|alsa[:DEVICE]|wav:PATH|wav-float:PATH|null`:
/// parsed by the configuration, made into a sink by the output module.
public enum OutputChoice: Sendable, Equatable {
    /// PulseAudio, then ALSA, else a one-line notice and `null`.
    case auto
    /// The PulseAudio server (also PipeWire through pipewire-pulse).
    case pulse
    /// An ALSA PCM: `device` (e.g. "hw:0", "plughw:1") or "default" when nil.
    case alsa(device: String?)
    /// A WAV file at `path`: 16-bit PCM (`wav:PATH`), or 32-bit IEEE float when `float` is true
    /// (`wav-float:PATH`).
    case wav(path: String, float: Bool)
    /// Nowhere: paces in real time (or as fast as possible with `--untimed`).
    case null
}
