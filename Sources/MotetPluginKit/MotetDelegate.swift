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
    /// Make an instance with the options from `--plugin NAME:KEY=VALUE,...` or the config file,
    /// in order, with repeats. When `descriptor.options` describes them, the host has checked
    /// every value against its kind (and expanded "~/" in paths) before calling this.
    init(host: MotetHost, options: PluginOptions) throws
    /// Everything about what is playing, in full. `info.hasTrack == false` means: clear your display.
    func nowPlayingChanged(_ info: NowPlayingInfo)
    func playbackStateChanged(_ state: PlaybackStateInfo)
    /// ABI 1.1: a track became current, with the whole track and why. Never coalesced.
    func trackStarted(_ event: TrackStartedInfo)
    /// Never coalesced; from ABI 1.1 it carries the track, the time heard and the position reached.
    func trackFinished(_ event: TrackFinishedInfo)
    /// ABI 1.1: this delegate fell `count` tracks behind (`MOTET_QUEUE_TRACKS`); their events
    /// were dropped just before the next one.
    func tracksLost(_ count: Int)
    /// ABI 1.1: a seek that was asked for has been made (MPRIS Seeked).
    func seeked(_ event: SeekedInfo)
    func decodeErrorOccurred(_ event: DecodeErrorInfo)
    func interruptionBegan(_ reason: InterruptionKind)
    func interruptionEnded(_ reason: InterruptionKind)
    /// The last event before the instance is released.
    func shutdown()
}

extension MotetDelegate {
    public func nowPlayingChanged(_ info: NowPlayingInfo) {}
    public func playbackStateChanged(_ state: PlaybackStateInfo) {}
    public func trackStarted(_ event: TrackStartedInfo) {}
    public func trackFinished(_ event: TrackFinishedInfo) {}
    public func tracksLost(_ count: Int) {}
    public func seeked(_ event: SeekedInfo) {}
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
    /// The options it understands; empty leaves options unchecked (every key reaches `init`).
    public var options: [OptionDescription]

    public init(
        id: String, name: String, version: String, description: String, minimumHostMinor: UInt32 = 0,
        options: [OptionDescription] = []
    ) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.minimumHostMinor = minimumHostMinor
        self.options = options
    }
}

/// Errors a delegate's `init` can throw to decline; the message reaches the host's log.
public struct DelegateError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
