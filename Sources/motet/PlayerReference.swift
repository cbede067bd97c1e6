import MotetConfiguration
import MotetPlayback
import MotetOutput
import MotetSystem

/// Lets the plugin host reach the player that is created after it.
final class PlayerReference: Sendable {
    private let slot = Locked<Player?>(nil)
    var player: Player? { slot.withLock { $0 } }
    func set(_ player: Player) { slot.withLock { $0 = player } }
}
