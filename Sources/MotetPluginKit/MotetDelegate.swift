@_exported import MotetPluginABI

/// A Motet delegate written in Swift.
///
/// Duties, all from `motet/plugin.h` (the contract; this protocol only wraps it):
/// - Every method runs on this instance's own serial queue, never two at once and never on the
///   audio thread. Take as long as you need: only this delegate waits.
/// - What the events carry is copied into Swift values: keep them as long as you like.
/// - `init` may throw to decline; say why through `host.log` first. The player plays on.
/// - `shutdown()` is the last call before the instance is released: join every thread you started.
/// - Every method has a default that does nothing; implement only what you show.
///
/// Export a delegate with one line (the function name must be exactly `motet_plugin_entry`):
/// ```swift
/// @_cdecl("motet_plugin_entry")
/// public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
///     MotetPluginExport.entry(MyDelegate.self, major, minor)
/// }
/// ```
public protocol MotetDelegate: AnyObject {
    /// Identity shown by `motet --list-plugins`.
    static var descriptor: DelegateDescriptor { get }
    /// Make an instance with the options from `--plugin NAME:KEY=VALUE,...` or the config file.
    init(host: MotetHost, options: [String: String]) throws
    /// Everything about what is playing, in full. `info.hasTrack == false` means: clear your display.
    func nowPlayingChanged(_ info: NowPlayingInfo)
    func playbackStateChanged(_ state: PlaybackStateInfo)
    func trackFinished(_ event: TrackFinishedInfo)
    func decodeErrorOccurred(_ event: DecodeErrorInfo)
    func interruptionBegan(_ reason: InterruptionKind)
    func interruptionEnded(_ reason: InterruptionKind)
    /// The last event before the instance is released.
    func shutdown()
}

extension MotetDelegate {
    public func nowPlayingChanged(_ info: NowPlayingInfo) {}
    public func playbackStateChanged(_ state: PlaybackStateInfo) {}
    public func trackFinished(_ event: TrackFinishedInfo) {}
    public func decodeErrorOccurred(_ event: DecodeErrorInfo) {}
    public func interruptionBegan(_ reason: InterruptionKind) {}
    public func interruptionEnded(_ reason: InterruptionKind) {}
    public func shutdown() {}
}

/// Identity of a delegate, as `motet --list-plugins` shows it.
public struct DelegateDescriptor: Sendable {
    public var id: String
    public var name: String
    public var version: String
    public var description: String
    /// The oldest host ABI minor this delegate works with.
    public var minimumHostMinor: UInt32

    public init(id: String, name: String, version: String, description: String, minimumHostMinor: UInt32 = 0) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.minimumHostMinor = minimumHostMinor
    }
}

/// Errors a delegate's `init` can throw to decline; the message reaches the host's log.
public struct DelegateError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
