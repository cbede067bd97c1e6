/// Time in types: a moment is a `MonotonicInstant`, a span is a `Swift.Duration`, and an amount
/// of audio is frames at a rate. Every conversion between them and the integers that C APIs,
/// atomics and the plugin ABI use (nanoseconds, microseconds) is in this file, so that
/// microseconds, nanoseconds and frames cannot be mixed by hand elsewhere.

/// A moment on the host's monotonic clock (`MonotonicClock`, CLOCK_MONOTONIC): never jumps, and
/// means nothing across machines or boots.
@frozen public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since the clock's arbitrary origin: what atomics and `MonotonicClock` hold.
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The moment in microseconds (the plugin ABI's unit for a monotonic time) and back.
    @inlinable public init(microseconds: Int64) { nanoseconds = microseconds * 1000 }
    @inlinable public var microseconds: Int64 { nanoseconds / 1000 }

    /// Now.
    @inlinable public static func now() -> MonotonicInstant { MonotonicInstant(nanoseconds: MonotonicClock.now()) }

    @inlinable public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable public static func + (a: MonotonicInstant, d: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: a.nanoseconds + d.nanoseconds)
    }
    @inlinable public static func - (a: MonotonicInstant, d: Duration) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: a.nanoseconds - d.nanoseconds)
    }
    @inlinable public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Duration { .nanoseconds(a.nanoseconds - b.nanoseconds) }

    /// Frames at `rate` a second from `earlier` to this moment (truncated). Integer arithmetic,
    /// cheap enough for the sink thread (a `Duration` takes 128-bit arithmetic).
    @inlinable public func frames(since earlier: MonotonicInstant, rate: Int64) -> Int64 {
        Int64(Double(nanoseconds - earlier.nanoseconds) * Double(rate) / 1_000_000_000)
    }

    /// Nanoseconds from `earlier` to this moment: for the sink thread's integer spans.
    @inlinable public func nanoseconds(since earlier: MonotonicInstant) -> Int64 { nanoseconds - earlier.nanoseconds }
}

/// The sink thread's integer conversions between frames and nanoseconds (see `DrySpell`).
public enum FrameTime {
    /// Nanoseconds that `frames` last at `rate` (truncated).
    @inlinable public static func nanoseconds(frames: Int64, rate: Int) -> Int64 { frames * 1_000_000_000 / Int64(max(1, rate)) }

    /// Nanoseconds that `frames` last at `rate`, rounded (the null output's pacing).
    @inlinable public static func nanosecondsRounded(frames: Int64, rate: Int) -> Int64 {
        Int64((Double(frames) * 1_000_000_000 / Double(rate)).rounded())
    }

    /// Frames at `rate` in `nanoseconds` (truncated).
    @inlinable public static func frames(nanoseconds: Int64, rate: Int) -> Int64 { nanoseconds * Int64(rate) / 1_000_000_000 }
}

extension Duration {
    /// Whole nanoseconds, truncated toward zero.
    @inlinable public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Whole microseconds, truncated toward zero: the unit of the plugin ABI and of the decoder's
    /// positions.
    @inlinable public var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }

    /// How long `frames` last at `rate` frames a second, to the microsecond below (as the events
    /// report it; a zero or negative rate counts as 1).
    @inlinable public static func frames(_ frames: Int64, rate: Int) -> Duration {
        .microseconds(frames * 1_000_000 / Int64(max(1, rate)))
    }

    /// The frames at `rate` that fit in this span (truncated).
    @inlinable public func frames(rate: Int64) -> Int64 { microseconds * rate / 1_000_000 }

    /// How many whole `interval`s fit in this span (for a refresh every interval).
    @inlinable public func count(of interval: Duration) -> Int64 { microseconds / max(1, interval.microseconds) }

    /// How many `interval`s it takes to cover this span, the last one perhaps in part (rounded
    /// up, to the microsecond).
    @inlinable public func countRoundedUp(of interval: Duration) -> Int64 {
        let step = max(1, interval.microseconds)
        return (microseconds + step - 1) / step
    }

    /// What is left of this span after its whole `interval`s.
    @inlinable public func remainder(after interval: Duration) -> Duration {
        .microseconds(microseconds % max(1, interval.microseconds))
    }
}
