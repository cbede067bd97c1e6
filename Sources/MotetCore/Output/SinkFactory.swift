import MotetEvents

/// Makes the sink the user chose.
public enum SinkFactory {
    /// `auto`: pulse, then alsa, else `notice("motet: no sound server or sound card found (...);
    /// playing to the null output")` and null.
    /// `untimed` (null and wav only): write returns at once instead of pacing in real time.
    /// Throws when the chosen output (not `auto`) cannot be used, with one line saying why.
    public static func make(
        _ choice: OutputChoice, untimed: Bool, clientName: String, notice: @escaping @Sendable (String) -> Void
    ) throws(OutputError) -> any AudioSink {
        switch choice {
        case .pulse:
            return try PulseSink(clientName: clientName)
        case .alsa(let device):
            return try ALSASink(device: device)
        case .wav(let path, let float):
            return try WAVSink(path: path, float: float, untimed: untimed, notice: notice)
        case .null:
            return NullSink(untimed: untimed)
        case .auto:
            let pulseFailure: OutputError
            do throws(OutputError) {
                return try PulseSink(clientName: clientName)
            } catch {
                pulseFailure = error
            }
            let alsaFailure: OutputError
            do throws(OutputError) {
                return try ALSASink(device: nil)
            } catch {
                alsaFailure = error
            }
            notice(
                "motet: no sound server or sound card found (pulse: \(reason(pulseFailure)); alsa: \(reason(alsaFailure))); playing to the null output"
            )
            return NullSink(untimed: untimed)
        }
    }

    /// The "why" part of an output error's line, for the combined `auto` notice.
    private static func reason(_ error: OutputError) -> String {
        var text = Substring(error.description)
        if let colon = text.firstIndex(of: ":"), text.hasPrefix("motet") { text = text[text.index(after: colon)...] }
        if let semicolon = text.firstIndex(of: ";") { text = text[..<semicolon] }
        while text.first == " " { text = text.dropFirst() }
        return String(text)
    }
}
