/// `--skip-limit N/MINUTES`: at most `count` skips within any `minutes`-minute window, like a
/// licensed radio service. `count` may be 0 (no skipping at all).
public struct SkipLimit: Sendable, Equatable {
    /// Skips allowed per window (0 or more).
    public var count: Int
    /// The window's length in minutes (1 or more).
    public var minutes: Int

    /// A limit of `count` skips per `minutes` minutes.
    public init(count: Int, minutes: Int) {
        self.count = count
        self.minutes = minutes
    }
}
