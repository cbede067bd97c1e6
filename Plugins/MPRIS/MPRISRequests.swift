import CGIO
import DBusSupport
import MotetPluginKit

/// The GDBus vtable shared by the three interfaces; `user_data` is the `MPRISServer`.
/// GDBus calls it on the bus thread (the thread whose main context registered the object).
enum MPRISVTable {
    nonisolated(unsafe) static let shared: UnsafeMutablePointer<GDBusInterfaceVTable> = {
        let table = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)  // lives for the process
        table.initialize(
            to: GDBusInterfaceVTable(
                method_call: { _, _, _, interface, method, parameters, invocation, data in
                    guard let interface, let method, let invocation else { return }
                    Unmanaged<MPRISServer>.fromOpaque(data!).takeUnretainedValue().call(
                        String(cString: interface), String(cString: method), parameters, invocation)
                },
                get_property: { _, _, _, interface, property, _, data in
                    guard let interface, let property else { return nil }
                    return Unmanaged<MPRISServer>.fromOpaque(data!).takeUnretainedValue().property(
                        String(cString: interface), String(cString: property))
                },
                set_property: { _, _, _, interface, property, value, error, data in
                    guard let interface, let property, let value else { return 0 }
                    let refusal = Unmanaged<MPRISServer>.fromOpaque(data!).takeUnretainedValue().setProperty(
                        String(cString: interface), String(cString: property), value)
                    guard let refusal else { return 1 }
                    error?.pointee = refusal.gerror()
                    return 0
                },
                padding: (nil, nil, nil, nil, nil, nil, nil, nil)))
        return table
    }()
}

/// A D-Bus error to answer with.
struct MPRISRefusal: Error {
    var name: String
    var message: String

    /// The error as a GError for GDBus's `set_property`, which sends it with the name its domain
    /// and code are registered under and `message` as the text.
    ///
    /// `g_dbus_error_new_for_dbus_error` writes "GDBus.Error:NAME: " into the message, and GDBus
    /// sends the message as it is, so clients showed the prefix twice. Stripping it is only safe
    /// for a registered name (GIO's own `org.freedesktop.DBus.Error.*`, and Motet's, registered
    /// here), whose domain and code still say which name to send.
    func gerror() -> UnsafeMutablePointer<GError>? {
        _ = Self.namesRegistered
        let error = g_dbus_error_new_for_dbus_error(name, message)
        // An unregistered name comes back as G_IO_ERROR_DBUS_ERROR: its prefix is all that holds the name.
        if let error, error.pointee.domain != g_io_error_quark() { _ = g_dbus_error_strip_remote_error(error) }
        return error
    }

    /// Registers Motet's own error names (once, for the process: GIO's table is global).
    private static let namesRegistered: Bool = {
        let domain = g_quark_from_static_string("motet-mpris-error-quark")
        return g_dbus_error_register_error(domain, 0, MPRISInterfaces.ErrorName.refused) != 0
    }()
}

extension MPRISServer {
    /// One method call from a client. [bus thread]
    func call(_ interface: String, _ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer) {
        let answer: Result<Void, MPRISRefusal>
        switch (interface, method) {
        case (MPRISInterfaces.root, "Raise"): answer = .success(())  // CanRaise is false: no effect
        case (MPRISInterfaces.root, "Quit"): answer = send(.quit, "Quit")
        case (MPRISInterfaces.player, "Play"): answer = send(.play, method)
        case (MPRISInterfaces.player, "Pause"): answer = send(.pause, method)
        case (MPRISInterfaces.player, "PlayPause"): answer = send(.toggle, method)
        case (MPRISInterfaces.player, "Stop"): answer = send(.stop, method)
        case (MPRISInterfaces.player, "Next"): answer = send(.next, method)
        case (MPRISInterfaces.player, "Previous"): answer = previous()
        case (MPRISInterfaces.player, "Seek"):
            let offset = parameters.map { p in GVariantRead.withChild(p, 0) { Int64(g_variant_get_int64($0)) } } ?? 0
            answer = send(.seekRelative(offset), method)
        case (MPRISInterfaces.player, "SetPosition"):
            answer = setPosition(parameters)
        case (MPRISInterfaces.player, "OpenUri"):
            answer = openURI(parameters.map { p in GVariantRead.withChild(p, 0) { GVariantRead.string($0) } } ?? "")
        case (MPRISInterfaces.feedback, "Like"): answer = send(.like, method)
        case (MPRISInterfaces.feedback, "Dislike"): answer = send(.dislike, method)
        case (MPRISInterfaces.feedback, "Unlike"): answer = send(.unlike, method)
        default:
            answer = .failure(
                MPRISRefusal(name: MPRISInterfaces.ErrorName.unknownMethod, message: "no method \(interface).\(method)"))
        }
        switch answer {
        case .success: g_dbus_method_invocation_return_value(invocation, nil)
        case .failure(let refusal): g_dbus_method_invocation_return_dbus_error(invocation, refusal.name, refusal.message)
        }
    }

    /// Previous only when CanGoPrevious says so: without a track before this one (the first track,
    /// no loop) the player would restart the track, which is not what `Previous` promises; the
    /// spec asks for no effect, and Motet says so with a refusal.
    private func previous() -> Result<Void, MPRISRefusal> {
        let (enabled, control) = model.withLock { ($0.previousEnabled, $0.remoteCommands) }
        guard enabled || !control else {
            return .failure(
                MPRISRefusal(
                    name: MPRISInterfaces.ErrorName.refused,
                    message: "there is no previous track (CanGoPrevious is false)"))
        }
        return send(.previous, "Previous")
    }

    /// OpenUri(uri): a URI of a scheme in SupportedUriSchemes (`file://`, `http://`, `https://`)
    /// is appended to the queue and played; any other scheme is not supported.
    private func openURI(_ uri: String) -> Result<Void, MPRISRefusal> {
        let scheme = uri.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        guard uri.lowercased().hasPrefix(scheme + "://"), MPRISModel.uriSchemes.contains(scheme) else {
            return .failure(
                MPRISRefusal(
                    name: MPRISInterfaces.ErrorName.notSupported,
                    message: "Motet opens file://, http:// and https:// URIs only, not \(uri)"))
        }
        return send(.openURI(uri), "OpenUri")
    }

    /// SetPosition(trackid, position): ignored (successfully, as the spec says) for a stale
    /// track id or a position outside the track.
    private func setPosition(_ parameters: OpaquePointer?) -> Result<Void, MPRISRefusal> {
        guard let parameters else { return .success(()) }
        let trackID = GVariantRead.withChild(parameters, 0) { GVariantRead.string($0) }
        let position = GVariantRead.withChild(parameters, 1) { Int64(g_variant_get_int64($0)) }
        let (current, length) = model.withLock { ($0.trackObjectPath, $0.track?.durationMicros) }
        guard trackID == current, current != MPRISTrack.noTrackPath, position >= 0 else { return .success(()) }
        if let length, position > length { return .success(()) }
        return send(.seekAbsolute(position), "SetPosition")
    }

    /// Sends a command to the player; a refused or unknown command becomes a D-Bus error, so the
    /// client (and its user) learns that nothing happened.
    private func send(_ command: MotetHost.Command, _ what: String) -> Result<Void, MPRISRefusal> {
        switch host.send(command) {
        case .accepted:
            return .success(())
        case .refused:
            return .failure(
                MPRISRefusal(
                    name: MPRISInterfaces.ErrorName.refused,
                    message: "the player refused \(what) (remote commands are off, or it is not possible now)"))
        case .unsupported:
            return .failure(
                MPRISRefusal(name: MPRISInterfaces.ErrorName.notSupported, message: "this Motet does not support \(what)"))
        case .busy:
            return .failure(
                MPRISRefusal(
                    name: MPRISInterfaces.ErrorName.refused,
                    message: "the player is busy (too many commands waiting); \(what) was not queued, try again"))
        }
    }

    /// One property read; a new floating GVariant, or nil for an unknown property. [bus thread]
    func property(_ interface: String, _ name: String) -> OpaquePointer? {
        let snapshot = model.withLock { $0 }
        let list: [(String, MPRISValue)]
        switch interface {
        case MPRISInterfaces.root: list = MPRISModel.rootProperties
        case MPRISInterfaces.player:
            if name == "Position" { return g_variant_new_int64(Int(snapshot.position(at: Int64(g_get_monotonic_time())))) }
            if name == "CanControl" { return g_variant_new_boolean(1) }
            list = snapshot.playerProperties
        case MPRISInterfaces.feedback: list = snapshot.feedbackProperties
        default: return nil
        }
        return list.first { $0.0 == name }?.1.variant()
    }

    /// One property write; nil when done, else the error to answer with. [bus thread]
    ///
    /// Volume sends set-volume; Rate 0.0 pauses (as the spec asks) and other rates are ignored
    /// (Motet plays at 1.0 only); Shuffle sends set-shuffle and LoopStatus set-loop (`None` or
    /// `Playlist`; Motet has no single-track repeat). The new values come back in the next
    /// playback-state event, which announces them.
    func setProperty(_ interface: String, _ name: String, _ value: OpaquePointer) -> MPRISRefusal? {
        guard interface == MPRISInterfaces.player else {
            return MPRISRefusal(name: MPRISInterfaces.ErrorName.notSupported, message: "\(name) is read-only")
        }
        switch name {
        case "Volume":
            let volume = g_variant_get_double(value)
            let percent = volume.isNaN ? 0 : Int((min(max(volume, 0), 1) * 100).rounded())
            if case .failure(let refusal) = send(.setVolume(percent), "Volume") { return refusal }
            return nil
        case "Rate":
            if g_variant_get_double(value) == 0, case .failure(let refusal) = send(.pause, "Rate 0 (pause)") {
                return refusal
            }
            return nil
        case "Shuffle":
            if case .failure(let refusal) = send(.setShuffle(g_variant_get_boolean(value) != 0), "Shuffle") {
                return refusal
            }
            return nil
        case "LoopStatus":
            let status = GVariantRead.string(value)
            switch status {
            case "None", "Playlist":
                if case .failure(let refusal) = send(.setLoop(status == "Playlist"), "LoopStatus") { return refusal }
                return nil
            case "Track":
                return MPRISRefusal(
                    name: MPRISInterfaces.ErrorName.notSupported,
                    message: "Motet repeats the whole queue (Playlist), not a single track")
            default:
                return MPRISRefusal(
                    name: MPRISInterfaces.ErrorName.invalidArgs,
                    message: "LoopStatus is None, Track or Playlist, not '\(status)'")
            }
        default:
            return MPRISRefusal(name: MPRISInterfaces.ErrorName.notSupported, message: "\(name) is read-only")
        }
    }
}
