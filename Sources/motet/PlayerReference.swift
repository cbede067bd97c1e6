import MotetConfiguration
import MotetCore
import MotetOutput

/// Lets the plugin host reach the player that is created after it.
final class PlayerReference: Sendable {
    private let slot = Locked<Player?>(nil)
    var player: Player? { slot.withLock { $0 } }
    func set(_ player: Player) { slot.withLock { $0 = player } }
}

extension OutputChoice {
    /// The command line's `--output` value as the output module's choice.
    init(_ setting: OutputSetting) {
        switch setting {
        case .auto: self = .auto
        case .pulse: self = .pulse
        case .alsa(let device): self = .alsa(device: device)
        case .wav(let path, let float): self = .wav(path: path, float: float)
        case .null: self = .null
        }
    }
}
