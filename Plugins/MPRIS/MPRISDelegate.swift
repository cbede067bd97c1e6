import MotetPluginKit

/// Motet on the desktop's media controls, lock screen and media keys: an MPRIS2 player on the
/// session bus (`org.mpris.MediaPlayer2.motet`), with `org.motet.Feedback` for like / dislike.
///
/// Written against `motet/plugin.h` through MotetPluginKit only, as a third party would; the
/// D-Bus side lives on its own GLib thread (`MPRISServer`). See Plugins/MPRIS/README.md.
public final class MPRISDelegate: MotetDelegate {
    /// Identity shown by `motet --list-plugins`.
    public static let descriptor = DelegateDescriptor(
        id: "org.motet.mpris", name: "mpris", version: "0.1.0",
        description: "media keys, lock screen and desktop media controls over MPRIS2 (D-Bus session bus)")

    private let server: MPRISServer

    /// Starts serving in the background. Takes no options; unknown ones are reported and ignored.
    public init(host: MotetHost, options: PluginOptions) throws {
        for key in options.keys.sorted() { host.log(.warning, "MPRIS: unknown option '\(key)' ignored") }
        server = try MPRISServer(host: host)
    }

    deinit { server.stop() }

    public func nowPlayingChanged(_ info: NowPlayingInfo) {
        server.update { $0.apply(info) }
    }

    public func playbackStateChanged(_ state: PlaybackStateInfo) {
        server.update { $0.apply(state) }
    }

    /// Every seek the player made, however small, becomes one `Seeked` signal.
    public func seeked(_ event: SeekedInfo) {
        let now = MPRISServer.monotonicMicros()
        server.update { $0.apply(event, at: now) }
    }

    /// Leaves the bus and joins the D-Bus thread.
    public func shutdown() {
        server.stop()
    }
}

/// The plugin's one exported symbol.
@_cdecl("motet_plugin_entry")
public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
    MotetPluginExport.entry(MPRISDelegate.self, major, minor)
}
