import Foundation

/// A second real notification server for one test: xfce4-notifyd under Xvfb on a `DBusRig` bus,
/// with a `dbus-monitor` recording every call to and signal from `org.freedesktop.Notifications`
/// (xfce4-notifyd has no history command), and `xdotool` to click a bubble's buttons.
///
/// Debian 12's xfce4-notifyd (0.7.3) advertises `actions` and `body-markup` and closes a bubble
/// when one of its buttons is clicked. `stop()` (or `deinit`) ends everything by PID.
public final class XfceNotifyRig: @unchecked Sendable {
    public static let binary = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"

    public let bus: DBusRig
    public let directory: String
    /// The X display the bubbles are drawn on, e.g. `:93`.
    public let display: String
    private let xvfb: XvfbDisplay
    private var server: SpawnedProcess?
    private var monitor: SpawnedProcess?

    public init(bus: DBusRig) throws {
        self.bus = bus
        let dir = try Paths.temporaryDirectory("motet-xfce4-notifyd")
        directory = dir
        xvfb = try XvfbDisplay(directory: dir)
        display = xvfb.display
        let monitor = try SpawnedProcess(
            ["dbus-monitor", "--session", "interface='org.freedesktop.Notifications'"],
            environment: bus.environment, stdout: dir + "/monitor.txt", stderr: dir + "/monitor.err")
        self.monitor = monitor
        // It records only once it has joined the bus (its NameAcquired is its first line).
        try Readiness.wait(for: "dbus-monitor", answering: "NameAcquired", timeout: 10, process: monitor) {
            self.monitorText.contains("NameAcquired")
        }
        // Its own HOME and config: the settings it reads (xfconf) are not there, so the defaults hold.
        let env = bus.environment.merging([
            "DISPLAY": display, "HOME": dir, "XDG_CONFIG_HOME": dir + "/config", "XDG_CACHE_HOME": dir + "/cache",
            "XDG_DATA_HOME": dir + "/data", "NO_AT_BRIDGE": "1",
        ]) { $1 }
        let server = try SpawnedProcess([Self.binary], environment: env, stdout: dir + "/notifyd.log", stderr: dir + "/notifyd.err")
        self.server = server
        do {
            try bus.waitForNotificationServer("xfce4-notifyd", process: server) {
                (try? String(contentsOfFile: dir + "/notifyd.err", encoding: .utf8)) ?? ""
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Stops the monitor, xfce4-notifyd and Xvfb, by PID. Safe to call twice.
    public func stop() {
        server?.stop()
        monitor?.stop()
        xvfb.stop()
    }

    /// Everything dbus-monitor printed so far.
    public var monitorText: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/monitor.txt") ?? Data(), as: UTF8.self)
    }

    /// The recorded messages, one string each (the header line and its body).
    public var messages: [String] {
        var result: [String] = []
        for line in monitorText.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("signal ") || line.hasPrefix("method ") || line.hasPrefix("error ") {
                result.append(String(line))
            } else if !result.isEmpty {
                result[result.count - 1] += "\n" + line
            }
        }
        return result
    }

    /// The `Notify` calls seen so far.
    public var notifyCalls: [String] { messages.filter { $0.hasPrefix("method call") && $0.contains("member=Notify") } }

    /// The ids of the bubbles the server closed, with the reason (1 expired, 2 dismissed, 3 closed
    /// by a call).
    public var closed: [(id: UInt32, reason: UInt32)] {
        messages.filter { $0.contains("member=NotificationClosed") }.compactMap { m in
            let values = m.split(separator: "\n").dropFirst().compactMap { UInt32($0.split(separator: " ").last ?? "") }
            return values.count == 2 ? (values[0], values[1]) : nil
        }
    }

    /// The visible bubbles' X windows, as `xdotool` finds them.
    public func bubbles() throws -> [(x: Int, y: Int, width: Int, height: Int)] {
        let env = ["DISPLAY": display]
        let ids = try Shell.run(["xdotool", "search", "--onlyvisible", "--name", "xfce4-notifyd"], environment: env)
        return try ids.stdout.split(separator: "\n").compactMap { id in
            let g = try Shell.run(["xdotool", "getwindowgeometry", "--shell", String(id)], environment: env).stdout
            var v: [String: Int] = [:]
            for line in g.split(separator: "\n") {
                let kv = line.split(separator: "=")
                if kv.count == 2 { v[String(kv[0])] = Int(kv[1]) }
            }
            guard let x = v["X"], let y = v["Y"], let w = v["WIDTH"], let h = v["HEIGHT"], w > 1, h > 1 else { return nil }
            return (x, y, w, h)
        }
    }

    /// Clicks the first (left-most) button of the bubble on screen, as a user would: the buttons
    /// fill the bubble's bottom row, so a point 15 px above its bottom edge, 40 px from its left.
    public func clickFirstButton() throws {
        guard let b = try bubbles().first else { throw TestError.failed("no bubble on screen to click") }
        try Shell.check(
            ["xdotool", "mousemove", String(b.x + 40), String(b.y + b.height - 15), "click", "1"],
            environment: ["DISPLAY": display])
    }
}
