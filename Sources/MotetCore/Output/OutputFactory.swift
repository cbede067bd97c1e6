import MotetEvents

/// Makes the output device the user chose.
public enum OutputFactory {
    /// What `auto` says when it falls back to null: what happened and the fix, in one line that
    /// fits 80 columns with the last one left free.
    public static let noSoundNotice = "motet: no sound server or card found, so no sound: start PulseAudio or PipeWire"

    /// `auto`: pulse, then alsa, else ``noSoundNotice`` and null.
    /// `untimed` (null and wav only): the device takes everything at once instead of pacing in
    /// real time.
    /// `pauseForCalls`: the PulseAudio output reports calls as interruptions (`PulseOutput`).
    /// Throws when the chosen output (not `auto`) cannot be used.
    public static func make(
        _ choice: OutputChoice, untimed: Bool, clientName: String, pauseForCalls: Bool = true,
        notice: @escaping @Sendable (String) -> Void
    ) throws(OutputError) -> any AudioOutput {
        switch choice {
        case .pulse:
            return try PulseOutput(clientName: clientName, pauseForCalls: pauseForCalls)
        case .alsa(let device):
            return try ALSAOutput(device: device)
        case .wav(let path, let float):
            return try WAVOutput(path: path, float: float, untimed: untimed, notice: notice)
        case .null:
            return NullOutput(untimed: untimed)
        case .auto:
            if let pulse = try? PulseOutput(clientName: clientName, pauseForCalls: pauseForCalls) { return pulse }
            if let alsa = try? ALSAOutput(device: nil) { return alsa }
            // libpulse's and alsa-lib's words ("cannot create a context") tell a user nothing;
            // `-o pulse` or `-o alsa` gives them to whoever wants to know.
            notice(noSoundNotice)
            return NullOutput(untimed: untimed)
        }
    }
}
