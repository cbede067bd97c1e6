import CPluginGuard
import MotetPluginABI

/// What the crash guard reported about an instance: the signal and the call it ended.
struct PluginCrash: Equatable {
    let signal: Int32
    let call: Int32
    let eventType: UInt32

    /// "SIGSEGV (segmentation fault)", "signal 42": the one way a plugin's signal is named (the
    /// crash guard, a plugin's process, `--list-plugins`).
    static func signalName(_ signal: Int32) -> String {
        motet_guard_signal_name(signal).map { String(cString: $0) } ?? "signal \(signal)"
    }

    /// "create", "on_event (track-finished)", "destroy".
    var callName: String {
        switch call {
        case MOTET_GUARDED_CREATE: return "create"
        case MOTET_GUARDED_DESTROY: return "destroy"
        default: return "on_event (\(Self.eventName(eventType)))"
        }
    }

    /// The one line that tells the user, naming the plugin and its file.
    func message(plugin: String, file: String) -> String {
        "motet: plugin \(LogText.escaped(plugin)) (\(LogText.escaped(file))) crashed in \(callName) with "
            + "\(Self.signalName(signal)); it gets no more events and playback goes on without it"
            + " (report it to the plugin's author)"
    }

    private static func eventName(_ type: UInt32) -> String {
        switch type {
        case UInt32(MOTET_EVENT_NOW_PLAYING): return "now-playing"
        case UInt32(MOTET_EVENT_PLAYBACK_STATE): return "playback-state"
        case UInt32(MOTET_EVENT_TRACK_FINISHED): return "track-finished"
        case UInt32(MOTET_EVENT_DECODE_ERROR): return "decode-error"
        case UInt32(MOTET_EVENT_INTERRUPTION_BEGAN): return "interruption-began"
        case UInt32(MOTET_EVENT_INTERRUPTION_ENDED): return "interruption-ended"
        case UInt32(MOTET_EVENT_SHUTDOWN): return "shutdown"
        case UInt32(MOTET_EVENT_TRACK_STARTED): return "track-started"
        case UInt32(MOTET_EVENT_TRACKS_LOST): return "tracks-lost"
        case UInt32(MOTET_EVENT_SEEKED): return "seeked"
        default: return "event \(type)"
        }
    }
}
