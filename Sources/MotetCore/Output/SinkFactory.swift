import MotetEvents

/// Makes the output device the user chose.
public enum SinkFactory {
    /// `auto`: pulse, then alsa, else `notice("motet: no sound server or sound card found (...);
    /// playing to the null output")` and null.
    /// `untimed` (null and wav only): the device takes everything at once instead of pacing in
    /// real time.
    /// `pauseForCalls`: the PulseAudio output reports calls as interruptions (`PulseDevice`).
    /// Throws when the chosen output (not `auto`) cannot be used.
    public static func make(
        _ choice: OutputChoice, untimed: Bool, clientName: String, pauseForCalls: Bool = true,
        notice: @escaping @Sendable (String) -> Void
    ) throws(OutputError) -> any AudioDevice {
        switch choice {
        case .pulse:
            return try PulseDevice(clientName: clientName, pauseForCalls: pauseForCalls)
        case .alsa(let device):
            return try ALSADevice(device: device)
        case .wav(let path, let float):
            return try WAVDevice(path: path, float: float, untimed: untimed, notice: notice)
        case .null:
            return NullDevice(untimed: untimed)
        case .auto:
            let pulseFailure: OutputError
            do throws(OutputError) {
                return try PulseDevice(clientName: clientName, pauseForCalls: pauseForCalls)
            } catch {
                pulseFailure = error
            }
            let alsaFailure: OutputError
            do throws(OutputError) {
                return try ALSADevice(device: nil)
            } catch {
                alsaFailure = error
            }
            notice(
                "motet: no sound server or sound card found (pulse: \(pulseFailure.reason); alsa: \(alsaFailure.reason)); playing to the null output"
            )
            return NullDevice(untimed: untimed)
        }
    }
}
