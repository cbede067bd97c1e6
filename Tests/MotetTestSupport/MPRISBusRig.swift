import Foundation

/// A private D-Bus session bus for one test, run as a direct child (`dbus-daemon --nofork`) on a
/// socket in the test's own directory; nothing auto-starts (the config has no `<servicedir>`).
///
/// Why not `--fork`: Foundation's `Process` on Linux learns that a child exited when a socket it
/// passed down is closed (swift-corelibs-foundation issue 4795); a forked daemon inherits that
/// socket, so `waitUntilExit` on `dbus-daemon --fork` waits for the daemon itself, i.e. forever.
/// And test processes may hand down a blocked SIGTERM, which dbus-daemon never unblocks: stop()
/// kills with SIGKILL.
public final class MPRISBusRig: @unchecked Sendable {
    /// The bus address, `unix:path=DIR/bus`.
    public let address: String
    /// The directory holding the config and the socket.
    public let directory: String
    private let process: Process
    private let lock = NSLock()
    private var stopped = false

    /// The daemon's process id.
    public var pid: pid_t { process.processIdentifier }

    /// Environment for clients of this bus (merge into `Shell.run(environment:)`).
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Starts the daemon and waits (up to 10 s) until its socket accepts clients.
    public init(directory: String? = nil) throws {
        let dir = try directory ?? Paths.temporaryDirectory("motet-bus")
        self.directory = dir
        let address = "unix:path=\(dir)/bus"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>session</type><listen>\(address)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
            <allow own="*"/></policy></busconfig>

            """
        try config.write(toFile: dir + "/bus.conf", atomically: true, encoding: .utf8)
        self.address = address
        process = try Shell.start(
            ["dbus-daemon", "--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile"],
            stderr: dir + "/dbus-daemon.log")
        let up = (try? Shell.waitUntil(timeout: 10) {
            guard self.process.isRunning else { throw TestError.failed("dbus-daemon exited") }
            let r = try? Shell.run(["busctl", "--user", "status", "org.freedesktop.DBus"], environment: self.environment, timeout: 5)
            return r?.status == 0
        }) ?? false
        guard up else {
            stop()
            let log = (try? String(contentsOfFile: dir + "/dbus-daemon.log", encoding: .utf8)) ?? ""
            throw TestError.failed("dbus-daemon did not come up on \(address): \(log)")
        }
    }

    deinit { stop() }

    /// Kills the daemon by PID (SIGKILL) and reaps it. Safe to call twice.
    public func stop() {
        let already = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if already { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// True once `name` is owned on this bus.
    public func hasName(_ name: String) -> Bool {
        let r = try? Shell.run(["busctl", "--user", "status", name], environment: environment, timeout: 10)
        return r?.status == 0
    }

    /// Waits until `name` is owned on this bus; false after `timeout` seconds.
    @discardableResult
    public func waitForName(_ name: String, timeout: Double = 10) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { self.hasName(name) }) ?? false
    }

    /// Waits until `name` is no longer owned; false after `timeout` seconds.
    @discardableResult
    public func waitForNameToVanish(_ name: String, timeout: Double = 10) -> Bool {
        (try? Shell.waitUntil(timeout: timeout) { !self.hasName(name) }) ?? false
    }
}
