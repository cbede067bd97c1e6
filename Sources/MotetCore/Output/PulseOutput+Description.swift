import CPulse
import Glibc
import MotetEvents

/// What a desktop shows about our stream (pavucontrol, GNOME's sound settings, `pactl list
/// sink-inputs`, `pw-dump`): the track's title and artist as `media.title` / `media.artist` (and
/// `media.name`), and an icon. Set when a stream is made and updated when the heard track
/// changes, from the control thread under the main loop's lock — never from the sink thread, whose
/// writes must not allocate.
extension PulseOutput {
    /// A freedesktop icon-naming-spec name every icon theme has (Motet installs no icon of its own).
    static let iconName = "multimedia-player"

    /// Names the track being heard; the stream's properties follow (at once when a stream is
    /// ready, else when it is). Repeating the same description sends nothing. [thread-safe]
    public func describe(title: String?, artist: String?) {
        withLock {
            guard title != describedTitle || artist != describedArtist else { return }
            describedTitle = title
            describedArtist = artist
            sendDescription()
        }
    }

    /// Sends the description to the stream if it is ready. Called again when a stream becomes
    /// ready: one made before `describe` was called, or while it was, has the old description.
    func sendDescription() {
        guard let stream, !lost, pa_stream_get_state(stream) == PA_STREAM_READY else { return }
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        describe(into: props)
        if let operation = pa_stream_proplist_update(stream, PA_UPDATE_REPLACE, props, nil, nil) {
            pa_operation_unref(operation)
        }
        if describedTitle == nil { removeProperty("media.title", of: stream) }
        if describedArtist == nil { removeProperty("media.artist", of: stream) }
    }

    private func removeProperty(_ key: String, of stream: OpaquePointer) {
        key.withCString { key in
            var keys: [UnsafePointer<CChar>?] = [key, nil]
            keys.withUnsafeMutableBufferPointer { keys in
                if let operation = pa_stream_proplist_remove(stream, keys.baseAddress, nil, nil) {
                    pa_operation_unref(operation)
                }
            }
        }
    }

    /// Adds the description to a stream's (or context's) properties.
    func describe(into props: OpaquePointer?) {
        pa_proplist_sets(props, "application.icon_name", Self.iconName)
        pa_proplist_sets(props, "media.name", describedTitle ?? "Music")
        if let describedTitle { pa_proplist_sets(props, "media.title", describedTitle) }
        if let describedArtist { pa_proplist_sets(props, "media.artist", describedArtist) }
    }
}
