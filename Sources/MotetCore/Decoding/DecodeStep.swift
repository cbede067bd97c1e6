/// What one call to `VorbisDecoder.read(into:maxFrames:)` produced.
public enum DecodeStep: Sendable {
    /// This many frames were written to the buffer, in the current link's format (never 0 unless
    /// `maxFrames` was 0).
    case frames(Int)
    /// The next samples belong to a new link of a chained file. The decoder's `format` and
    /// `metadata` already describe it; no samples were written. Size the buffer for the new
    /// channel count before the next read.
    case linkChanged
    /// Damaged or missing data was skipped (libvorbisfile's `OV_HOLE`, or a damaged packet, link or
    /// link header); decoding continues with the next read.
    case hole(DecoderError)
    /// Every frame of the file has been returned.
    case endOfStream
    /// Decoding cannot go on (or the file turned out to be cut short after its last good frame).
    /// Every later read returns `.endOfStream`.
    case failed(DecoderError)
}
