/// Something the sound server or the device did, reported through `AudioOutput.onEvent`.
public enum OutputNotice: Sendable, Equatable {
    /// A call began: the server asks us to pause (PulseAudio `request-cork`: e.g. a phone-role
    /// stream started), or, on a server that does not (PipeWire), the device saw the call's stream
    /// itself — one event per call either way. The player should pause the output: that is an
    /// *interruption began*.
    case corkRequested
    /// The call ended: the server allows us to play again (`request-uncork`), or the last call's
    /// stream left. An *interruption ended*.
    case uncorkRequested
    /// The sound server or the device went away. The device takes nothing until `restored`; it
    /// retries by itself.
    case lost
    /// The sound server or the device is back; writing continues (what the lost one held was
    /// never heard).
    case restored
    /// The device ran dry (an underrun) or was suspended, and recovered by itself: a short gap may
    /// have been heard; playback goes on. Not an interruption.
    case glitch
}
