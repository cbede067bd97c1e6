import Foundation

/// A private D-Bus session bus for one test: a real `dbus-daemon` with a config that has no
/// `<servicedir>`, so nothing auto-starts (a missing service is `ServiceUnknown`).
///
/// Clients reach it through `environment` (`DBUS_SESSION_BUS_ADDRESS`). Call `stop()` when done
/// (the daemon is killed by its PID; `deinit` stops it too).
public final class DBusRig: @unchecked Sendable {
    /// The bus address, e.g. `unix:path=/tmp/dbus-XXXX,guid=…`.
    public let address: String
    /// The daemon's process id (it forked itself, so it is not our child).
    public let pid: pid_t
    /// The directory holding the bus config (and whatever the test puts there).
    public let directory: String
    private let lock = NSLock()
    private var stopped = false

    /// Environment for clients of this bus (merge into `Shell.run(environment:)`).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Starts `dbus-daemon --fork` with a session config that allows everything and auto-starts nothing.
    public init(directory: String? = nil) throws {
        let dir = try directory ?? Paths.temporaryDirectory("motet-dbus")
        self.directory = dir
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
            <allow own="*"/></policy></busconfig>

            """
        let configPath = dir + "/bus.conf"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let r = try Shell.run(
            ["dbus-daemon", "--config-file=\(configPath)", "--fork", "--print-address=1", "--print-pid=1"],
            timeout: 20)
        let lines = r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard r.status == 0, lines.count >= 2, let pid = pid_t(lines[1]), !lines[0].isEmpty else {
            throw TestError.failed("dbus-daemon did not start (status \(r.status)): \(r.stdout) \(r.stderr)")
        }
        self.address = lines[0]
        self.pid = pid
    }

    deinit { stop() }

    /// Kills the daemon by PID and waits (up to 5 s) until it is gone. Safe to call twice.
    public func stop() {
        let already = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if already { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 {
            if kill(pid, 0) != 0 { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
    }

    /// True once `name` is owned on this bus (`busctl --user status NAME` succeeds).
    public func hasName(_ name: String) -> Bool {
        let r = try? Shell.run(["busctl", "--user", "status", name], environment: environment, timeout: 10)
        return r?.status == 0
    }

    /// Waits until `name` is owned on this bus; false after `timeout` seconds.
    @discardableResult
    public func waitForName(_ name: String, timeout: Double = 10) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { hasName(name) }) ?? false
    }

    /// Waits until `name` is no longer owned; false after `timeout` seconds.
    @discardableResult
    public func waitForNameToVanish(_ name: String, timeout: Double = 10) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { !hasName(name) }) ?? false
    }
}
