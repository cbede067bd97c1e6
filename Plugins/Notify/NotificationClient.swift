import CGIO
import DBusSupport
import MotetPluginKit

#if canImport(Glibc)
import Glibc
#endif

/// A private connection to the session bus and the calls of the Desktop Notifications
/// Specification (org.freedesktop.Notifications): GetCapabilities, Notify, CloseNotification,
/// and the ActionInvoked / NotificationClosed signals, which arrive on `loop`'s thread.
///
/// Every call is synchronous with a timeout (`callTimeoutMillis`), so a stuck server delays this
/// plugin's queue by at most that long and never hangs the player.
final class NotificationClient {
    static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    static let callTimeoutMillis: Int32 = 2000

    private let connection: OpaquePointer
    private let loop: MainLoopThread
    private var subscription: guint = 0
    private var closed = false
    /// What the server can do (GetCapabilities), e.g. `actions`, `body-markup`.
    let capabilities: Set<String>
    /// e.g. "dunst 1.9.0".
    let serverName: String

    /// Connects to the session bus and asks the notification server what it can do; throws why
    /// (no bus, no server) when either fails.
    init(feedback: FeedbackState) throws(NotificationError) {
        guard let address = Self.sessionBusAddress() else { throw .noSessionBus }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let conn = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            defer { g_clear_error(&error) }
            throw .cannotConnect(error.map(NotificationError.message) ?? "unknown error")
        }
        connection = conn
        loop = MainLoopThread()
        do {
            let caps = try Self.call(conn, "GetCapabilities", nil, reply: "(as)")
            capabilities = Set(GVariantRead.withChild(caps, 0) { GVariantRead.strings($0) })
            g_variant_unref(caps)
            if let info = try? Self.call(conn, "GetServerInformation", nil, reply: "(ssss)") {
                let name = GVariantRead.withChild(info, 0) { GVariantRead.string($0) }
                let version = GVariantRead.withChild(info, 2) { GVariantRead.string($0) }
                serverName = name + " " + version
                g_variant_unref(info)
            } else {
                serverName = "unknown"
            }
        } catch {
            g_dbus_connection_close(conn, nil, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(conn))
            throw error
        }
        let context = Unmanaged.passRetained(feedback).toOpaque()
        subscription = loop.withContext {
            g_dbus_connection_signal_subscribe(
                conn, Self.busName, Self.interface, nil, Self.objectPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, signal, parameters, data in
                    guard let signal, let parameters, let data else { return }
                    let feedback = Unmanaged<FeedbackState>.fromOpaque(data).takeUnretainedValue()
                    NotificationClient.signalArrived(String(cString: signal), parameters, feedback)
                }, context,
                { data in
                    if let data { Unmanaged<FeedbackState>.fromOpaque(data).release() }
                })
        }
        guard loop.start() else {
            g_dbus_connection_signal_unsubscribe(conn, subscription)
            g_dbus_connection_close(conn, nil, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(conn))
            throw .noSignalThread
        }
    }

    /// Unsubscribes, stops the loop thread and closes the connection. Safe to call twice.
    func close() {
        guard !closed else { return }
        closed = true
        if subscription != 0 {
            g_dbus_connection_signal_unsubscribe(connection, subscription)
            subscription = 0
        }
        loop.stop()
        // Run what is pending (the unsubscribe's user-data release) before letting go.
        while g_main_context_iteration(loop.context, 0) != 0 {}
        g_dbus_connection_close(connection, nil, nil, nil)
    }

    deinit {
        close()
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Shows or replaces (`replacing` ≠ 0) our bubble; returns the server's id for it.
    func notify(_ content: BubbleContent, replacing: UInt32, expireMillis: Int32) throws(NotificationError) -> UInt32 {
        let hints = GVariantBuild.dictionary { add in
            add("category", g_variant_new_string("x-gnome.music"))
            add("desktop-entry", g_variant_new_string("motet"))
            if let image = content.imageURI { add("image-path", g_variant_new_string(image)) }
            // With buttons: servers that close a bubble when one is pressed (xfce4-notifyd) keep it,
            // so a like updates it in place instead of closing it and opening a new one (a flash).
            if !content.actions.isEmpty { add("resident", g_variant_new_boolean(1)) }
            // What is playing now is worth nothing in a notification log once the track is over.
            add("transient", g_variant_new_boolean(1))
        }
        let parameters = GVariantBuild.tuple([
            g_variant_new_string("Motet"), g_variant_new_uint32(replacing), g_variant_new_string(""),
            g_variant_new_string(content.summary), g_variant_new_string(content.body),
            GVariantBuild.strings(content.actions), hints, g_variant_new_int32(expireMillis),
        ])
        let reply = try Self.call(connection, "Notify", parameters, reply: "(u)")
        defer { g_variant_unref(reply) }
        return GVariantRead.withChild(reply, 0) { g_variant_get_uint32($0) }
    }

    /// Closes our bubble. A bubble already gone is not an error.
    func closeNotification(_ id: UInt32) throws(NotificationError) {
        let reply = try Self.call(connection, "CloseNotification", GVariantBuild.tuple([g_variant_new_uint32(id)]), reply: nil)
        g_variant_unref(reply)
    }

    // MARK: - Signals (on the loop thread)

    static func signalArrived(_ name: String, _ parameters: OpaquePointer, _ feedback: FeedbackState) {
        switch name {
        case "ActionInvoked" where g_variant_n_children(parameters) >= 2:
            let id = GVariantRead.withChild(parameters, 0) { g_variant_get_uint32($0) }
            let key = GVariantRead.withChild(parameters, 1) { GVariantRead.string($0) }
            feedback.actionInvoked(id: id, key: key)
        case "NotificationClosed" where g_variant_n_children(parameters) >= 1:
            feedback.closed(id: GVariantRead.withChild(parameters, 0) { g_variant_get_uint32($0) })
        default:
            break
        }
    }

    // MARK: - Plumbing

    /// The session bus address: DBUS_SESSION_BUS_ADDRESS, else `$XDG_RUNTIME_DIR/bus` when that
    /// socket exists. Never autolaunches a bus (a player must not spawn dbus-launch).
    static func sessionBusAddress() -> String? {
        if let env = getenv("DBUS_SESSION_BUS_ADDRESS"), env.pointee != 0 { return String(cString: env) }
        if let runtime = XDGDirectories().runtimeDirectory {
            let socket = runtime + "/bus"
            var info = stat()
            if stat(socket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return "unix:path=" + socket }
        }
        return nil
    }

    /// One method call on the notification server; the reply (to unref), or why it failed.
    static func call(_ conn: OpaquePointer, _ method: String, _ parameters: OpaquePointer?, reply: String?)
        throws(NotificationError) -> OpaquePointer
    {
        var error: UnsafeMutablePointer<GError>?
        let replyType = reply.map { g_variant_type_new($0) }
        defer { if let replyType { g_variant_type_free(replyType) } }
        guard
            let result = g_dbus_connection_call_sync(
                conn, busName, objectPath, interface, method, parameters, replyType ?? nil,
                G_DBUS_CALL_FLAGS_NONE, callTimeoutMillis, nil, &error)
        else {
            throw .call(method, taking: &error)
        }
        return result
    }
}
