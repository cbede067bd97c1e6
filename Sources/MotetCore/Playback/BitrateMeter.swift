/// A stream's real bit rate, measured by the decoder thread: the bytes it took from the stream per
/// second of audio it made, over `window` of audio at a time. A stream read as a stream is told it
/// (`NetworkStream.setBitrate`), so that its pre-buffer and what its buffering line says it needs
/// are what it takes, not its header's nominal rate (a quiet VBR station uses a fraction of that,
/// and would seem to come too slowly).
struct BitrateMeter: Equatable {
    /// How much audio one measurement spans.
    static let window: Duration = .seconds(4)
    /// The stream's read offset and the frames decoded since the measurement began.
    private var offset: Int64
    private var frames: Int64 = 0

    /// A measurement that begins at the stream's read offset `offset`.
    init(from offset: Int64) { self.offset = offset }

    /// `frames` more were decoded at `rate`, and the stream has been read up to `offset`: the bit
    /// rate once a window is full (and a new window begins), else nil.
    /// (`offset` is read only then: it takes the stream's lock.)
    mutating func decoded(_ frames: Int, rate: Int, offset: @autoclosure () -> Int64) -> Int? {
        self.frames += Int64(frames)
        guard rate > 0, self.frames >= Self.window.frames(rate: Int64(rate)) else { return nil }
        let now = offset()
        defer { (self.offset, self.frames) = (now, 0) }
        return now > self.offset ? Int((now - self.offset) * 8 * Int64(rate) / self.frames) : nil
    }
}
