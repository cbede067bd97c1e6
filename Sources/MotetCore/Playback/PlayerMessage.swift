import MotetEvents
import MotetOutput

/// Everything that reaches the player's control thread. The player takes them one at a time, in
/// the order they happened, from one inbox (`PlayerInbox`) and from the sink worker's event queue.
enum PlayerMessage: Sendable {
    /// A key, a signal or a plugin asks for something, for `track` (0: whatever is current).
    case command(PlayerCommand, CommandSource, track: UInt64 = 0)
    /// The decoder opened a segment, or could not decode something.
    case decoder(DecoderReport)
    /// The output side: a segment reached the device, the ring ran dry, the device did something.
    case output(OutputEvent)
    /// Whether a screen shows the status line now (Motet is the terminal's foreground job): its
    /// refresh every `displayIntervalMicros` runs only while one does.
    case display(shown: Bool)
}
