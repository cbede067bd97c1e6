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
