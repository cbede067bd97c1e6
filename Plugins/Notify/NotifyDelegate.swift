import MotetPluginKit

/// The `notify` delegate: one desktop notification bubble per player, updated in place, with
/// Like / Dislike / Skip buttons when the notification server supports actions.
///
/// Options:
/// - `timeout=SECONDS`: how long a bubble stays (default: the server's choice; `0` = until closed).
/// - `actions=yes|no`: offer the buttons (default yes, when the server has `actions`).
///
/// Without a session bus or without a notification server, `init` succeeds, says so in one log
/// line, and the instance does nothing: the player plays on.
public final class NotifyDelegate: MotetDelegate {
    public static let descriptor = DelegateDescriptor(
        id: "org.motet.notify", name: "notify", version: "1.0.0",
        description: "Shows what is playing in a desktop notification (Like / Dislike / Skip buttons)",
        options: [
            OptionDescription("timeout", .duration, help: "seconds a bubble stays (0 to 86400; 0: until closed); the server's default when absent"),
            OptionDescription("actions", .bool, default: "yes", help: "show Like / Dislike / Skip buttons when the server can"),
        ])

    private let host: MotetHost
    private let feedback: FeedbackState
    private var client: NotificationClient?
    private let expireMillis: Int32
    private let wantsActions: Bool
    /// What the bubble shows now (nil: no bubble).
    private var shown: BubbleContent?

    public init(host: MotetHost, options: PluginOptions) throws {
        self.host = host
        var expire: Int32 = -1
        var actions = true
        for (key, value) in options.pairs {
            switch key {
            case "timeout":
                guard let seconds = Double(value), seconds >= 0, seconds <= 86400 else {
                    throw DelegateError("timeout=\(value) is not a number of seconds from 0 to 86400")
                }
                expire = Int32(seconds * 1000)
            case "actions":
                switch value.lowercased() {
                case "yes", "true", "on", "1": actions = true
                case "no", "false", "off", "0": actions = false
                default: throw DelegateError("actions=\(value) is not yes or no")
                }
            default:
                host.log(.warning, "ignoring unknown option '\(key)' (known: timeout, actions)")
            }
        }
        expireMillis = expire
        feedback = FeedbackState(host: host)
        do {
            let client = try NotificationClient(feedback: feedback)
            wantsActions = actions && client.capabilities.contains("actions")
            self.client = client
            host.log(
                .debug,
                "notification server: \(client.serverName) (\(client.capabilities.sorted().joined(separator: ", ")))")
        } catch {
            wantsActions = false
            host.log(.warning, "desktop notifications are off: \(error); playback goes on")
        }
    }

    deinit { client?.close() }

    public func nowPlayingChanged(_ info: NowPlayingInfo) {
        guard let client else { return }
        feedback.shown.withLock {
            $0.liked = info.likeActive
            $0.disliked = info.dislikeActive
            $0.nextEnabled = info.nextEnabled
        }
        guard info.hasTrack else {
            closeBubble()
            return
        }
        let content = BubbleContent(
            info, markup: client.capabilities.contains("body-markup"), actions: wantsActions)
        // Same content: nothing to do, even when the user or a timeout closed the bubble (a pause
        // or a seek must not bring back a bubble the user dismissed; the next track will).
        if content == shown { return }
        let current = feedback.shown.withLock { $0.notificationID }
        do {
            let id = try client.notify(content, replacing: current, expireMillis: expireMillis)
            feedback.shown.withLock { $0.notificationID = id }
            shown = content
        } catch {
            disable("the notification server stopped answering: \(error)")
        }
    }

    /// Closes the bubble, then stops the D-Bus thread (the contract: join our threads).
    public func shutdown() {
        closeBubble()
        client?.close()
        client = nil
    }

    private func closeBubble() {
        let id = feedback.shown.withLock { s in
            defer { s.notificationID = 0 }
            return s.notificationID
        }
        shown = nil
        guard id != 0, let client else { return }
        do {
            try client.closeNotification(id)
        } catch {
            disable("the notification server stopped answering: \(error)")
        }
    }

    private func disable(_ why: String) {
        host.log(.warning, "desktop notifications are off: \(why); playback goes on")
        client?.close()
        client = nil
    }
}

/// The exported entry point.
@_cdecl("motet_plugin_entry")
public func motet_plugin_entry(_ major: UInt32, _ minor: UInt32) -> UnsafeRawPointer? {
    MotetPluginExport.entry(NotifyDelegate.self, major, minor)
}
