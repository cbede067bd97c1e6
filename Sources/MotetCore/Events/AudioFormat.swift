/// The shape of PCM between the decoder and the sink: interleaved 32-bit float frames in WAV
/// (WAVEFORMATEXTENSIBLE / SMPTE) channel order, whatever order the source used.
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String { "\(sampleRate) Hz, \(channels) channel\(channels == 1 ? "" : "s")" }
}
