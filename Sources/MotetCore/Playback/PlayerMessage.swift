import MotetEvents
import MotetOutput

/// Everything that reaches the player's control thread. The player takes them one at a time, in
/// the order they happened, from one inbox (`PlayerInbox`) and from the sink worker's event queue.
enum PlayerMessage: Sendable {
    /// A key, a signal or a plugin asks for something.
    case command(PlayerCommand, CommandSource)
    /// The decoder opened a segment, or could not decode something.
    case decoder(DecoderReport)
    /// The output side: a segment reached the device, the ring ran dry, the device did something.
    case output(OutputEvent)
}

/// What the output side tells the control thread, in the order it happened. Never counted or
/// coalesced: cork, uncork, cork arrive as three events and end corked.
enum OutputEvent: Sendable {
    /// The segment's first frame went to the device (it is heard once the heard position passes
    /// `boundary.frame` in `boundary.epoch`).
    case segmentWritten(SegmentBoundary)
    /// The ring ran dry before the end while the device was open and playing, at `sinceNanos`
    /// (monotonic); sent once per episode.
    case starving(sinceNanos: Int64)
    /// Samples flow again after `starving`.
    case fed
    /// The end of the queue was reached and everything written has been heard.
    case ended
    /// The device's own news: cork or uncork requested, lost, restored, a glitch.
    case device(SinkEvent)
    /// Opening or writing the device failed; `endsPlayback` says whether it is finished for good.
    case failed(OutputError)
}

/// The heard position of the output at one moment: `frames` heard of stream `epoch` at
/// `atNanos` (monotonic), advancing at `framesPerSecond` (0: standing still; negative: whatever is
/// written counts as heard at once, an untimed output).
struct HeardNow: Sendable, Equatable {
    var epoch: Int
    var frames: Int64
    var framesPerSecond: Int64
    var atNanos: Int64
}

/// Where a segment began in the sink's frame count, so the control thread can tell when it is heard.
struct SegmentBoundary: Sendable, Equatable {
    var segmentID: UInt64
    /// Sink stream generation (bumped by each open and flush, which reset the sink's frame count).
    var epoch: Int
    /// Frames written to the sink in this epoch before the segment's first frame.
    var frame: Int64
}
