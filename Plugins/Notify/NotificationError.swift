import CGIO

/// Why the notify delegate cannot show notifications: sorted by the D-Bus error *name* (read with
/// `g_dbus_error_get_remote_error`), never by splitting the text, and turned into words in one
/// place, ``description``.
enum NotificationError: Error, Equatable, CustomStringConvertible {
    /// Neither `DBUS_SESSION_BUS_ADDRESS` nor a `$XDG_RUNTIME_DIR/bus` socket.
    case noSessionBus
    /// Connecting to the session bus failed, with GIO's message.
    case cannotConnect(String)
    /// Nothing owns `org.freedesktop.Notifications` (the bus answered `ServiceUnknown` or
    /// `NameHasNoOwner`).
    case noServer
    /// Nothing owns it and the server the bus tried to start for it failed (`Spawn.*`, e.g. dunst
    /// installed but no display), with the bus's message.
    case serverDidNotStart(String)
    /// The server (or the bus for it) answered `method` with a D-Bus error: its name (e.g.
    /// `org.freedesktop.DBus.Error.UnknownMethod`) and message.
    case remote(method: String, name: String, message: String)
    /// `method` failed on our side of the bus (a timeout, a closed connection), with GIO's message.
    case local(method: String, message: String)
    /// The thread that receives the server's signals could not start.
    case noSignalThread

    /// The D-Bus error names that mean nobody owns the bus name we call.
    static let noOwnerNames: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
    ]

    /// The errors of a bus that tried to start the server (D-Bus activation) and failed.
    static let spawnErrorPrefix = "org.freedesktop.DBus.Error.Spawn."

    /// The error of a failed call of `method`, from its GError, which is then freed.
    static func call(_ method: String, taking error: inout UnsafeMutablePointer<GError>?) -> NotificationError {
        defer { g_clear_error(&error) }
        guard let e = error else { return .local(method: method, message: "unknown error") }
        guard let remoteName = g_dbus_error_get_remote_error(e) else {
            return .local(method: method, message: message(e))
        }
        defer { g_free(remoteName) }
        let name = String(cString: remoteName)
        if noOwnerNames.contains(name) { return .noServer }
        // Without it the message starts "GDBus.Error:NAME: ".
        _ = g_dbus_error_strip_remote_error(e)
        if name.hasPrefix(spawnErrorPrefix) { return .serverDidNotStart(message(e)) }
        return .remote(method: method, name: name, message: message(e))
    }

    /// GIO's message of a GError.
    static func message(_ error: UnsafeMutablePointer<GError>) -> String {
        error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }

    var description: String {
        switch self {
        case .noSessionBus: "no session bus (DBUS_SESSION_BUS_ADDRESS is unset)"
        case .cannotConnect(let why): "cannot connect to the session bus: \(why)"
        case .noServer: "no notification server on the session bus (nothing owns \(NotificationClient.busName))"
        case .serverDidNotStart(let why):
            "no notification server on the session bus (the bus could not start one for \(NotificationClient.busName): \(why))"
        case .remote(let method, let name, let message): "\(method) failed: \(name): \(message)"
        case .local(let method, let message): "\(method) failed: \(message)"
        case .noSignalThread: "cannot start the D-Bus thread"
        }
    }
}
