/// Something the sound server did to a sink's stream, reported through `AudioSink.onEvent`.
public enum SinkEvent: Sendable, Equatable {
    /// The server asks us to pause (PulseAudio `request-cork`: e.g. a phone-role stream started).
    /// The player should `pause()` the sink: that is an *interruption began*.
    case corkRequested
    /// The server allows us to play again (`request-uncork`): an *interruption ended*.
    case uncorkRequested
    /// The sound server went away. Writes return 0 until `restored`; the sink retries by itself.
    case lost
    /// The sound server is back and the stream was recreated; writing continues.
    case restored
    /// The device ran dry (an underrun) or was suspended, and the sink recovered by itself:
    /// a short gap may have been heard; playback goes on. Not an interruption.
    case glitch
}
