import Foundation

/// A real notification server for one test: Xvfb on a free display and dunst on a `DBusRig` bus,
/// with a generated dunstrc (long history, bubbles that never expire) and a scripted `dmenu` so a
/// test can press a named button: `invokeAction("like")`.
///
/// `stop()` (or `deinit`) terminates dunst and Xvfb by PID.
public final class DunstRig: @unchecked Sendable {
    /// One notification as `dunstctl history` reports it.
    public struct Notification: Sendable, Equatable {
        public var id: Int
        public var appName: String
        public var summary: String
        public var body: String
        public var category: String
        /// The image dunst loaded for it (from `image-path` or the icon), or "".
        public var iconPath: String
    }

    public let bus: DBusRig
    public let directory: String
    /// The X display dunst draws on, e.g. `:93`.
    public let display: String
    private let xvfb: XvfbDisplay
    private var dunst: SpawnedProcess?

    /// Starts Xvfb (it picks a free display itself: `-displayfd`) and dunst, and waits until dunst
    /// owns `org.freedesktop.Notifications` on `bus`.
    public init(bus: DBusRig) throws {
        self.bus = bus
        let dir = try Paths.temporaryDirectory("motet-dunst")
        directory = dir
        xvfb = try XvfbDisplay(directory: dir)
        display = xvfb.display

        // dmenu stand-in: dunst, not the test, runs it with one line per action on stdin, e.g.
        // "#♡ Like (Song) [2,like]"; it prints the first line containing the text in `choice`.
        let picker = dir + "/pick.sh"
        try """
            #!/bin/sh
            choice=$(cat '\(dir)/choice' 2>/dev/null)
            tee '\(dir)/menu.txt' | grep -F -- "$choice" | head -n 1

            """.write(toFile: picker, atomically: true, encoding: .utf8)
        chmod(picker, 0o755)
        let rc = dir + "/dunstrc"
        try """
            [global]
                dmenu = \(picker)
                history_length = 100
                markup = full
                idle_threshold = 0
                show_indicators = yes
            [urgency_low]
                timeout = 0
            [urgency_normal]
                timeout = 0
            [urgency_critical]
                timeout = 0

            """.write(toFile: rc, atomically: true, encoding: .utf8)
        let dunst = try SpawnedProcess(
            ["dunst", "-config", rc], environment: bus.environment.merging(["DISPLAY": display]) { $1 },
            stdout: dir + "/dunst.log", stderr: dir + "/dunst.err")
        self.dunst = dunst
        do {
            try bus.waitForNotificationServer("dunst", process: dunst) {
                (try? String(contentsOfFile: dir + "/dunst.err", encoding: .utf8)) ?? ""
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// dunst's process id while it runs (a test may SIGSTOP it to play a server that hangs).
    public var serverPID: pid_t? { dunst?.isRunning == true ? dunst?.pid : nil }

    /// Stops dunst, then Xvfb, by PID. Safe to call twice.
    public func stop() {
        dunst?.stop()
        xvfb.stop()
    }

    @discardableResult
    private func dunstctl(_ arguments: [String]) throws -> ProcessResult {
        try Shell.check(["dunstctl"] + arguments, environment: bus.environment)
    }

    /// Notifications shown right now (`dunstctl count displayed`).
    public func displayedCount() throws -> Int {
        Int(try dunstctl(["count", "displayed"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Notifications in the history (`dunstctl count history`): closed ones only.
    public func historyCount() throws -> Int {
        Int(try dunstctl(["count", "history"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Closes every shown notification (they move to the history).
    public func closeAll() throws { try dunstctl(["close-all"]) }

    /// The history, newest first, parsed from `dunstctl history` (JSON).
    public func history() throws -> [Notification] {
        let out = try dunstctl(["history"]).stdoutBytes
        guard let root = try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any],
            let outer = root["data"] as? [[[String: Any]]]
        else { throw TestError.failed("unexpected dunstctl history output: \(String(decoding: out, as: UTF8.self))") }
        func value(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
        return (outer.first ?? []).map { e in
            Notification(
                id: (value(e, "id") as? NSNumber)?.intValue ?? -1,
                appName: value(e, "appname") as? String ?? "",
                summary: value(e, "summary") as? String ?? "",
                body: value(e, "body") as? String ?? "",
                category: value(e, "category") as? String ?? "",
                iconPath: value(e, "icon_path") as? String ?? "")
        }
    }

    /// Presses the button with action key `key` (e.g. "like") on a shown notification, the way a
    /// user would through dunst's context menu: the scripted dmenu picks the line ending in
    /// `,key]`, and dunst sends `ActionInvoked(id, key)` to the client that created the bubble.
    /// Returns the menu dunst offered (its lines), for diagnostics.
    @discardableResult
    public func invokeAction(_ key: String) throws -> [String] {
        try ",\(key)]".write(toFile: directory + "/choice", atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: directory + "/menu.txt")
        try dunstctl(["context"])
        var menu = ""
        _ = try Shell.waitUntil(timeout: 5) {
            menu = (try? String(contentsOfFile: directory + "/menu.txt", encoding: .utf8)) ?? ""
            return !menu.isEmpty
        }
        return menu.split(separator: "\n").map(String.init)
    }
}
