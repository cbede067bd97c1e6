import MotetPluginKit

/// What the main-loop thread needs to answer a button press: our bubble's id and the feedback
/// state it shows. Written by the plugin queue, read by `ActionInvoked` callbacks.
final class FeedbackState: Sendable {
    struct Shown {
        /// The server's id of our bubble; 0 when none is shown.
        var notificationID: UInt32 = 0
        var liked = false
        var disliked = false
        var nextEnabled = false
    }

    let host: MotetHost
    let shown = Locked(Shown())

    init(host: MotetHost) { self.host = host }

    /// `ActionInvoked(id, key)`: ignored unless `id` is our bubble. Like and Dislike toggle (a second
    /// press on "♥ Liked" sends unlike); Skip sends next while next is enabled.
    func actionInvoked(id: UInt32, key: String) {
        let command: MotetHost.Command? = shown.withLock { s in
            guard id != 0, id == s.notificationID else { return nil }
            switch key {
            case "like": return s.liked ? .unlike : .like
            case "dislike": return s.disliked ? .unlike : .dislike
            case "next": return s.nextEnabled ? .next : nil
            default: return nil
            }
        }
        guard let command else { return }
        let answer = host.send(command)
        if answer != .accepted { host.log(.info, "the player did not take '\(key)' (\(answer))") }
    }

    /// `NotificationClosed(id, reason)`: the user or the server closed our bubble; not an error.
    /// The next update opens a new one.
    func closed(id: UInt32) {
        shown.withLock { s in
            if id == s.notificationID { s.notificationID = 0 }
        }
    }
}
