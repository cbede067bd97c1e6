import CGIO
import DBusSupport
import Glibc
import MotetPluginKit
import Synchronization

/// The MPRIS object on the session bus, served from its own GLib main-loop thread.
///
/// Threads:
/// - the plugin's queue calls `update` (events) and `stop` (shutdown);
/// - the bus thread runs a private `GMainContext`: it connects, registers the object, owns the
///   name, answers D-Bus calls and emits signals. Every GDBus object is touched only there.
/// The two meet in `model` (a `Locked` MPRISModel) and in idle sources added with `g_main_context_invoke`.
///
/// Never a hang: connecting and asking for the name are asynchronous and time out; when the bus
/// is missing or lost, one line goes to the host's log and the object stays off.
final class MPRISServer: @unchecked Sendable {
    // Unchecked: the GLib pointers below are thread-safe GLib objects (context, loop,
    // cancellable) or are used only on the bus thread (everything in the "bus thread" block).
    let host: MotetHost
    let model = Locked(MPRISModel())
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private var thread: UnsafeMutablePointer<GThread>?
    private let flushScheduled = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)

    /// How long connecting and each name request may take before the plugin gives up.
    static let timeoutMilliseconds: Int32 = 5000

    // MARK: Bus thread only
    var connection: OpaquePointer?
    private var registrations: [guint] = []
    private var closedHandler: gulong = 0
    private var flushing = false
    private var pendingCalls = 0
    private var disabled = false
    private var timedOut = false
    private var nameAttempt = 0
    /// The name this instance owns, once it owns one.
    private(set) var ownedName: String?
    /// What clients were last told, per "interface.property".
    private var announced: [String: MPRISValue] = [:]

    /// Starts the bus thread; it connects in the background. Throws if no thread can be started.
    init(host: MotetHost) throws {
        self.host = host
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        cancellable = g_cancellable_new()
        var error: UnsafeMutablePointer<GError>?
        let started = g_thread_try_new(
            "motet-mpris",
            { data in
                Unmanaged<MPRISServer>.fromOpaque(data!).takeUnretainedValue().runBusThread()
                return nil
            }, Unmanaged.passUnretained(self).toOpaque(), &error)
        guard let started else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            g_object_unref(cancellable)
            g_main_loop_unref(loop)
            g_main_context_unref(context)
            throw DelegateError("MPRIS: cannot start the D-Bus thread: \(reason)")
        }
        thread = started
    }

    deinit {
        stop()
        g_object_unref(cancellable)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    // MARK: Plugin queue

    /// Changes the model and lets the bus thread announce what changed. [plugin queue]
    func update(_ change: (inout MPRISModel) -> Void) {
        model.withLock { change(&$0) }
        guard !stopping.load(ordering: .acquiring),
            !flushScheduled.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        g_main_context_invoke(
            context,
            { data in
                Unmanaged<MPRISServer>.fromOpaque(data!).takeUnretainedValue().announceChanges()
                return 0  // G_SOURCE_REMOVE
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Leaves the bus and joins the bus thread. Safe to call twice. [plugin queue]
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Quit from inside the loop: g_main_loop_quit before g_main_loop_run would be lost.
        g_main_context_invoke(
            context,
            { data in
                g_main_loop_quit(OpaquePointer(data))
                return 0
            }, UnsafeMutableRawPointer(loop))
        if let thread {
            g_thread_join(thread)
            self.thread = nil
        }
    }

    // MARK: Bus thread

    private func runBusThread() {
        g_main_context_push_thread_default(context)
        connect()
        g_main_loop_run(loop)
        leaveBus()
        g_main_context_pop_thread_default(context)
    }

    private var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func server(_ data: UnsafeMutableRawPointer?) -> MPRISServer {
        Unmanaged<MPRISServer>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Finds the session bus address and opens a private connection to it (not GLib's shared
    /// one, whose exit-on-close would end the whole player if the bus went away).
    private func connect() {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, cancellable, &error) else {
            disable("no session bus (\(Self.message(&error)))")
            return
        }
        defer { g_free(address) }
        let timeout = g_timeout_source_new(guint(Self.timeoutMilliseconds))
        g_source_set_callback(
            timeout,
            { data in
                let server = MPRISServer.server(data)
                if server.connection == nil && !server.disabled {
                    server.timedOut = true
                    g_cancellable_cancel(server.cancellable)
                }
                return 0
            }, selfPointer, nil)
        g_source_attach(timeout, context)
        g_source_unref(timeout)
        pendingCalls += 1
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        g_dbus_connection_new_for_address(
            address, flags, nil, cancellable,
            { _, result, data in MPRISServer.server(data).connected(result) }, selfPointer)
    }

    private func connected(_ result: OpaquePointer?) {
        pendingCalls -= 1
        var error: UnsafeMutablePointer<GError>?
        guard let conn = g_dbus_connection_new_for_address_finish(result, &error) else {
            let why = timedOut ? "it did not answer within \(Self.timeoutMilliseconds / 1000) s" : Self.message(&error)
            g_clear_error(&error)
            if !stopping.load(ordering: .acquiring) { disable("cannot connect to the session bus (\(why))") }
            return
        }
        connection = conn
        if stopping.load(ordering: .acquiring) { return }
        g_dbus_connection_set_exit_on_close(conn, 0)
        closedHandler = g_signal_connect_data(
            UnsafeMutableRawPointer(conn), "closed",
            unsafeBitCast(
                { (_: OpaquePointer?, _: gboolean, _: UnsafeMutablePointer<GError>?, data: gpointer?) in
                    MPRISServer.server(data).connectionClosed()
                } as @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void,
                to: GCallback.self),
            selfPointer, nil, GConnectFlags(rawValue: 0))
        do {
            try registerObject(on: conn)
        } catch {
            disable("cannot export the MPRIS object: \(error.description)")
            return
        }
        // Clients that read the properties now see the current values; only later changes are announced.
        let snapshot = model.withLock { m in
            m.seeks = []
            return m
        }
        remember(snapshot)
        requestName()
    }

    private func registerObject(on conn: OpaquePointer) throws(DelegateError) {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(MPRISInterfaces.xml, &error) else {
            throw DelegateError(Self.message(&error))
        }
        defer { g_dbus_node_info_unref(node) }
        for name in [MPRISInterfaces.root, MPRISInterfaces.player, MPRISInterfaces.feedback] {
            let info = g_dbus_node_info_lookup_interface(node, name)
            let id = g_dbus_connection_register_object(
                conn, MPRISInterfaces.objectPath, info, MPRISVTable.shared, selfPointer, nil, &error)
            guard id != 0 else { throw DelegateError(Self.message(&error)) }
            registrations.append(id)
        }
    }

    /// The names to try, in order: the plain one, then one per instance (MPRIS spec: `.instance<PID>`).
    private var candidateNames: [String] {
        let pid = getpid()
        return [MPRISInterfaces.busName, "\(MPRISInterfaces.busName).instance\(pid)"]
            + (2...8).map { "\(MPRISInterfaces.busName).instance\(pid)_\($0)" }
    }

    /// RequestName with DO_NOT_QUEUE; on "exists", the next candidate.
    private func requestName() {
        guard let conn = connection else { return }
        let names = candidateNames
        guard nameAttempt < names.count else {
            disable("every MPRIS bus name Motet tries is taken")
            return
        }
        let parameters = GVariantBuild.tuple([g_variant_new_string(names[nameAttempt]), g_variant_new_uint32(4)])
        pendingCalls += 1
        GVariantBuild.withType("(u)") { replyType in
            g_dbus_connection_call(
                conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                parameters, replyType, G_DBUS_CALL_FLAGS_NONE, Self.timeoutMilliseconds, cancellable,
                { source, result, data in MPRISServer.server(data).nameRequested(source, result) }, selfPointer)
        }
    }

    private func nameRequested(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) {
        pendingCalls -= 1
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
            let why = Self.message(&error)
            if !stopping.load(ordering: .acquiring) { disable("the session bus did not give Motet a name (\(why))") }
            return
        }
        let code = GVariantRead.withChild(reply, 0) { g_variant_get_uint32($0) }
        g_variant_unref(reply)
        if stopping.load(ordering: .acquiring) { return }
        let name = candidateNames[nameAttempt]
        switch code {
        case 1, 4:  // PRIMARY_OWNER, ALREADY_OWNER
            ownedName = name
            host.log(.info, "MPRIS: on the session bus as \(name)")
        default:  // EXISTS (another player has it); IN_QUEUE cannot happen with DO_NOT_QUEUE
            nameAttempt += 1
            requestName()
        }
    }

    private func connectionClosed() {
        if stopping.load(ordering: .acquiring) || disabled { return }
        disable("lost the session bus")
    }

    /// Turns this instance off for the rest of the run, with one line in the host's log.
    private func disable(_ reason: String) {
        guard !disabled else { return }
        disabled = true
        host.log(.warning, "MPRIS: \(reason); media controls are off, playback goes on")
    }

    /// Announces what changed since the last announcement: PropertiesChanged per interface
    /// (never Position), then one Seeked per seek the player made.
    private func announceChanges() {
        flushScheduled.store(false, ordering: .releasing)
        // Runs even while stopping: the last state (e.g. Stopped at the end of the queue) goes out
        // before the connection closes; the quit request is queued behind this source.
        // Seeks are taken out even when nobody is told (no bus): the list must not grow.
        let snapshot = model.withLock { m in
            defer { m.seeks = [] }
            return m
        }
        guard let conn = connection, !disabled else { return }
        emitChanges(MPRISInterfaces.player, snapshot.playerProperties, on: conn)
        emitChanges(MPRISInterfaces.feedback, snapshot.feedbackProperties, on: conn)
        for position in snapshot.seeks {
            emit(MPRISInterfaces.player, "Seeked", GVariantBuild.tuple([g_variant_new_int64(Int(position))]), on: conn)
        }
    }

    private func remember(_ snapshot: MPRISModel) {
        for (name, value) in snapshot.playerProperties { announced[MPRISInterfaces.player + "." + name] = value }
        for (name, value) in snapshot.feedbackProperties { announced[MPRISInterfaces.feedback + "." + name] = value }
    }

    /// One PropertiesChanged for what changed, except that a change to `Stopped` goes out alone
    /// and first: a client that prints on every signal (`playerctl -F`) then never shows the
    /// emptied Metadata with the old `Playing`.
    private func emitChanges(_ interface: String, _ properties: [(String, MPRISValue)], on conn: OpaquePointer) {
        var changed: [(String, MPRISValue)] = []
        for (name, value) in properties where announced[interface + "." + name] != value {
            announced[interface + "." + name] = value
            changed.append((name, value))
        }
        if let stopped = changed.firstIndex(where: { $0.0 == "PlaybackStatus" && $0.1 == .string(MPRISPlaybackStatus.stopped.rawValue) }),
            changed.count > 1
        {
            emitPropertiesChanged(interface, [changed.remove(at: stopped)], on: conn)
        }
        emitPropertiesChanged(interface, changed, on: conn)
    }

    private func emitPropertiesChanged(_ interface: String, _ changed: [(String, MPRISValue)], on conn: OpaquePointer) {
        guard !changed.isEmpty else { return }
        let dictionary = GVariantBuild.dictionary { add in
            for (name, value) in changed { add(name, value.variant()) }
        }
        let parameters = GVariantBuild.tuple([g_variant_new_string(interface), dictionary, GVariantBuild.strings([])])
        emit(MPRISInterfaces.properties, "PropertiesChanged", parameters, on: conn)
    }

    private func emit(_ interface: String, _ signal: String, _ parameters: OpaquePointer, on conn: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(conn, nil, MPRISInterfaces.objectPath, interface, signal, parameters, &error) == 0 {
            host.log(.debug, "MPRIS: cannot emit \(signal): \(Self.message(&error))")
        }
    }

    /// Unexports the object, closes the connection (the bus drops the name) and waits for calls
    /// in flight, which the cancelled cancellable ends at once.
    private func leaveBus() {
        g_cancellable_cancel(cancellable)
        while pendingCalls > 0 { g_main_context_iteration(context, 1) }
        guard let conn = connection else { return }
        for id in registrations { g_dbus_connection_unregister_object(conn, id) }
        registrations = []
        if closedHandler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(conn), closedHandler) }
        if !disabled { flushOutgoing(conn) }
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_is_closed(conn) == 0 { _ = g_dbus_connection_close_sync(conn, nil, &error) }
        g_clear_error(&error)
        g_object_unref(UnsafeMutableRawPointer(conn))
        connection = nil
    }

    /// Waits (at most 1 s) until the signals emitted last (e.g. Stopped at the end of the queue)
    /// are written: closing the connection drops what is still queued.
    private func flushOutgoing(_ conn: OpaquePointer) {
        let flushCancellable = g_cancellable_new()
        defer { g_object_unref(flushCancellable) }
        let timeout = g_timeout_source_new(1000)
        g_source_set_callback(
            timeout,
            { data in
                g_cancellable_cancel(data?.assumingMemoryBound(to: GCancellable.self))
                return 0
            }, UnsafeMutableRawPointer(flushCancellable), nil)
        g_source_attach(timeout, context)
        defer {
            g_source_destroy(timeout)
            g_source_unref(timeout)
        }
        flushing = true
        g_dbus_connection_flush(
            conn, flushCancellable,
            { source, result, data in
                g_dbus_connection_flush_finish(OpaquePointer(source), result, nil)
                MPRISServer.server(data).flushing = false
            }, selfPointer)
        while flushing { g_main_context_iteration(context, 1) }
    }

    /// CLOCK_MONOTONIC in µs, the clock of the now-playing events' `elapsedAtMicros`.
    static func monotonicMicros() -> Int64 { Int64(g_get_monotonic_time()) }

    /// The message of a GError, which is then freed.
    static func message(_ error: inout UnsafeMutablePointer<GError>?) -> String {
        defer { g_clear_error(&error) }
        guard let e = error, let m = e.pointee.message else { return "unknown error" }
        return String(cString: m)
    }
}
