import Foundation

/// A private D-Bus session bus for one test: a real `dbus-daemon` with a config that has no
/// `<servicedir>`, so nothing auto-starts (a missing service is `ServiceUnknown`).
///
/// Clients reach it through `environment` (`DBUS_SESSION_BUS_ADDRESS`). Call `stop()` when done
/// (the daemon is stopped by its PID; `deinit` stops it too). The daemon is started with
/// `SpawnedProcess` (not `--fork` through `Shell.run`), so it inherits no other test's pipes.
public final class DBusRig: @unchecked Sendable {
    /// The bus address, e.g. `unix:path=/tmp/dbus-XXXX,guid=…`.
    public let address: String
    /// The daemon's process id.
    public var pid: pid_t { daemon.pid }
    private let daemon: SpawnedProcess
    /// The directory holding the bus config (and whatever the test puts there).
    public let directory: String

    /// Environment for clients of this bus (merge into `Shell.run(environment:)`).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Starts `dbus-daemon` with a session config that allows everything and auto-starts nothing,
    /// or, with `serviceDirectory`, only the services whose `.service` files are there.
    public init(directory: String? = nil, serviceDirectory: String? = nil) throws {
        let dir = try directory ?? Paths.temporaryDirectory("motet-dbus")
        self.directory = dir
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
            <allow own="*"/></policy>\(serviceDirectory.map { "<servicedir>\($0)</servicedir>" } ?? "")</busconfig>

            """
        let configPath = dir + "/bus.conf"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let addressFile = dir + "/address"
        let daemon = try SpawnedProcess(
            ["dbus-daemon", "--config-file=\(configPath)", "--nofork", "--print-address=1"],
            stdout: addressFile, stderr: dir + "/dbus-daemon.log")
        var line = ""
        let log = { (try? String(contentsOfFile: dir + "/dbus-daemon.log", encoding: .utf8)) ?? "" }
        do {
            try Readiness.wait(for: "dbus-daemon", answering: "its address", timeout: 20, process: daemon, detail: log) {
                let text = (try? String(contentsOfFile: addressFile, encoding: .utf8)) ?? ""
                line = text.hasSuffix("\n") ? text.trimmingCharacters(in: .whitespacesAndNewlines) : ""
                return !line.isEmpty
            }
            // The address is printed once the bus listens; a call that returns shows it serves.
            let bus = ["DBUS_SESSION_BUS_ADDRESS": line]
            try Readiness.wait(
                for: "dbus-daemon", answering: "a call to org.freedesktop.DBus on \(line)", timeout: 20, process: daemon,
                detail: log
            ) { (try? Shell.run(["busctl", "--user", "status", "org.freedesktop.DBus"], environment: bus, timeout: 10))?.status == 0 }
        } catch {
            daemon.stop()
            throw error
        }
        self.address = line
        self.daemon = daemon
    }

    deinit { stop() }

    /// Stops the daemon by PID (SIGTERM, then SIGKILL) and reaps it. Safe to call twice.
    public func stop() { daemon.stop() }

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

    /// Waits until the notification server `server` (its process: `process`) answers
    /// `GetServerInformation` on this bus — the server's own reply, not only its name on the bus.
    public func waitForNotificationServer(
        _ server: String, process: SpawnedProcess, timeout: Double = 20, detail: () -> String
    ) throws {
        try Readiness.wait(
            for: server, answering: "org.freedesktop.Notifications.GetServerInformation", timeout: timeout,
            process: process, detail: detail
        ) {
            let r = try? Shell.run(
                [
                    "busctl", "--user", "call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                    "org.freedesktop.Notifications", "GetServerInformation",
                ], environment: environment, timeout: 10)
            return r?.status == 0
        }
    }

    /// Waits until `name` is no longer owned; false after `timeout` seconds.
    @discardableResult
    public func waitForNameToVanish(_ name: String, timeout: Double = 10) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { !hasName(name) }) ?? false
    }
}
