#if canImport(Glibc)
import Glibc
#endif
import CPluginGuard
import MotetEvents
import MotetPluginABI
import Synchronization
import MotetSystem

/// One running plugin instance: its descriptor, its host table, and its serial queue (a thread
/// waiting on a condition variable). Only this thread ever calls into the plugin instance, and
/// always through the crash guard (`CPluginGuard`): a plugin that crashes in a call is reported
/// once and gets no more calls, and the player goes on.
final class PluginInstance: PluginEndpoint, @unchecked Sendable {
    // Unchecked: its mutable state is guarded by `lock` (also taken by the C crash guard).
    let name: String
    let file: String
    // The descriptor is the plugin's own `static const` (or a Swift plugin's leaked copy): it
    // lives for the process, and the host only reads it.
    private let descriptor: UnsafePointer<motet_plugin_descriptor>
    /// The ABI minor the plugin was built against: ABI 1.1 events go only to 1.1 plugins.
    let abiMinor: UInt32
    private let host: PluginHostTable
    private let log: @Sendable (String) -> Void

    private let lock = ConditionLock()
    // Everything below is guarded by `lock`.
    private var queue = PluginEventQueue()
    private var createStatus: Int32?
    /// Told once when create fails or crashes; dropped when create returns.
    private var onFailure: (@Sendable (PluginLoadFailure) -> Void)?
    private var stopping = false
    private var finished = false
    /// Filled in by the crash guard, with `lock` held, when a call into the plugin crashed.
    private let latch = UnsafeMutablePointer<motet_crash_latch>.allocate(capacity: 1)
    private var crashReported = false
    /// Touched only by the instance's own thread.
    private var reportedFallingBehind = false
    /// Events delivered so far (written by the instance's thread, read at exit).
    private let taken = Atomic<Int>(0)

    init(
        name: String, file: String, descriptor: UnsafePointer<motet_plugin_descriptor>,
        configuration: PluginHost.Configuration, stateDirectory: String? = nil
    ) {
        self.name = name
        self.file = file
        self.descriptor = descriptor
        self.abiMinor = descriptor.pointee.abi_minor
        self.host = PluginHostTable(
            instanceName: name, pluginMinor: abiMinor, configuration: configuration, stateDirectory: stateDirectory)
        self.log = configuration.log
        latch.initialize(to: motet_crash_latch(
            mutex: lock.mutex, condition: lock.condition, signal: 0, call: 0, event_type: 0))
    }

    // A crashed instance is never deinitialised (its parked thread keeps `self`), so nothing can
    // use the latch once this runs.
    deinit { latch.deallocate() }

    /// The crash the guard recorded, if any. Call with `lock` held.
    private var crash: PluginCrash? {
        let latch = latch.pointee
        guard latch.signal != 0 else { return nil }
        return PluginCrash(signal: latch.signal, call: latch.call, eventType: latch.event_type)
    }

    /// Logs the crash once (a crash in create as a failed start). Call with `lock` held.
    private func reportCrashOnce() {
        guard let crash, !crashReported else { return }
        crashReported = true
        if crash.call == MOTET_GUARDED_CREATE {
            fail(.createCrashed(signal: crash.signal))
        } else {
            log(crash.message(plugin: name, file: file))
        }
    }

    /// Reports a failed start once. Call with `lock` held.
    private func fail(_ failure: PluginLoadFailure) {
        let report = onFailure
        onFailure = nil
        report?(failure)
    }

    /// Starts the instance's thread, which calls `create` with `options` and then delivers what
    /// was queued meanwhile; returns at once (false when the thread could not start). A `create`
    /// that fails or crashes is reported once through `failed`, and its events are dropped.
    func start(options: [PluginOption], failed: @escaping @Sendable (PluginLoadFailure) -> Void) -> Bool {
        lock.withLock { onFailure = failed }
        return DetachedThread.start { [self] in run(options) }
    }

    /// Waits until `create` has returned (or crashed) or the monotonic time `deadline` passes;
    /// true when it returned `MOTET_OK`.
    func waitUntilCreated(deadline: MonotonicInstant) -> Bool {
        lock.withLock {
            while createStatus == nil && crash == nil {
                if !lock.wait(until: deadline) { break }
            }
            if crash != nil { reportCrashOnce() }
            return createStatus == MOTET_OK && crash == nil
        }
    }

    /// Queues an event for the instance. Never blocks on the plugin. After a crash, reports it
    /// (once) instead.
    func enqueue(_ event: PlayerEvent) {
        lock.withLock {
            guard crash == nil else { return reportCrashOnce() }
            // Queued while create runs too (delivered once it returns MOTET_OK).
            guard !stopping, createStatus == nil || createStatus == MOTET_OK,
                abiMinor >= 1 || !event.isNewInABI1_1
            else { return }
            queue.push(.player(event))
            lock.broadcast()
        }
    }

    /// Asks the thread to deliver what is queued, then the shutdown event, then destroy.
    func requestStop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    /// Waits until destroy has returned (or a call crashed) or the monotonic time `deadline`
    /// passes.
    func waitUntilFinished(deadline: MonotonicInstant) -> Bool {
        lock.withLock {
            while !finished {
                if crash != nil {
                    reportCrashOnce()
                    return true
                }
                if !lock.wait(until: deadline) { return finished || crash != nil }
            }
            return true
        }
    }

    /// How many tracks' events are still queued (or were dropped unannounced): at shutdown, those
    /// the plugin will not get if the host stops waiting now.
    var undeliveredTracks: Int { lock.withLock { queue.undeliveredTracks } }

    var eventsTaken: Int { taken.load(ordering: .relaxed) }

    /// Nothing to end: a thread stuck in a plugin cannot be stopped, and the process exits anyway.
    func abandon() {}

    /// The instance's thread.
    private func run(_ options: [PluginOption]) {
        let strings = CStringArena()
        var cOptions = options.map { motet_option(key: strings.copy($0.key), value: strings.copy($0.value)) }
        var instance: UnsafeMutableRawPointer? = nil
        let status: Int32 = cOptions.withUnsafeMutableBufferPointer { buffer in
            motet_guarded_create(
                latch, descriptor, UnsafePointer(host.table), buffer.baseAddress, UInt32(buffer.count), &instance)
        }
        withExtendedLifetime(strings) {}
        lock.withLock {
            createStatus = status
            if status != MOTET_OK {
                // Never created: nothing to shut down or destroy, and shutdown need not wait.
                queue = PluginEventQueue()
                finished = true
                fail(.createFailed(status))
            }
            // Only create can fail a start: what the handler holds is let go now, not at exit.
            onFailure = nil
            lock.broadcast()
        }
        guard status == MOTET_OK else { return }
        while let event = next() {
            deliver(event, to: instance)
        }
        deliver(.shutdown, to: instance)
        motet_guarded_destroy(latch, descriptor, instance)
        lock.withLock {
            finished = true
            lock.broadcast()
        }
    }

    /// The next event, waiting for one; nil once stopping and everything queued was delivered.
    /// Says once in the log when the plugin fell so far behind that events were dropped.
    private func next() -> QueuedEvent? {
        while true {
            let (event, droppedOthers): (QueuedEvent?, Int) = lock.withLock {
                while queue.isEmpty && !stopping { lock.wait() }
                return (queue.pop(), queue.takeDroppedOthers())
            }
            if droppedOthers > 0 { reportFallingBehind("\(droppedOthers) other event\(droppedOthers == 1 ? "" : "s")") }
            guard case .tracksLost(let count) = event else { return event }
            reportFallingBehind("the events of \(count) track\(count == 1 ? "" : "s")")
            // An ABI 1.0 plugin has no TRACKS_LOST event: the log line is all it gets.
            if abiMinor >= 1 { return event }
        }
    }

    /// The one log line about dropped events (only this instance's thread calls it).
    private func reportFallingBehind(_ what: String) {
        guard !reportedFallingBehind else { return }
        reportedFallingBehind = true
        log("motet: plugin \(LogText.escaped(name)) is not keeping up: dropped \(what) (at most \(MOTET_QUEUE_TRACKS) tracks wait; further drops are not logged)")
    }

    private func deliver(_ event: QueuedEvent, to instance: UnsafeMutableRawPointer?) {
        PluginEventMapping.withCEvent(event) { motet_guarded_on_event(latch, descriptor, instance, $0) }
        taken.add(1, ordering: .relaxed)
    }
}
