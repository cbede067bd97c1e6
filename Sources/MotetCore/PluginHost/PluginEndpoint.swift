import MotetEvents
import MotetSystem

/// What ``PluginHost`` needs of a running plugin instance, whether it runs in the player's
/// process (``PluginInstance``) or in a process of its own (``IsolatedPluginInstance``).
/// Every method is called by the host from any thread and never waits for the plugin, except the
/// `waitUntil…` ones, which wait at most until their deadline.
protocol PluginEndpoint: AnyObject, Sendable {
    var name: String { get }
    var file: String { get }
    /// Starts the instance's thread, which calls `create` with `options`; returns at once. A
    /// create that fails is reported once through `failed`.
    func start(options: [PluginOption], failed: @escaping @Sendable (PluginLoadFailure) -> Void) -> Bool
    /// True once create returned MOTET_OK; false at the deadline or when it failed.
    func waitUntilCreated(deadline: MonotonicInstant) -> Bool
    /// Queues an event (the rules of `PluginEventQueue`); never blocks on the plugin.
    func enqueue(_ event: PlayerEvent)
    /// Asks for what is queued, then the shutdown event, then destroy.
    func requestStop()
    /// True once destroy returned (or the instance can take no more calls).
    func waitUntilFinished(deadline: MonotonicInstant) -> Bool
    /// How many events the plugin has taken so far (its progress, watched at exit).
    var eventsTaken: Int { get }
    /// How many tracks still have events waiting (said when the host gives up on the instance).
    var undeliveredTracks: Int { get }
    /// The host gave up waiting at exit: end what can be ended.
    func abandon()
}
