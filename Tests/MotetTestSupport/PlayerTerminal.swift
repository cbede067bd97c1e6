import Foundation

/// motet in a real terminal (a detached tmux session on a private server socket), so a test can
/// press the player's keys: space pause, n next, l like, d dislike, q quit.
public final class PlayerTerminal {
    public let socket: String

    public init(command: [String], environment: [String: String]) throws {
        socket = "motet-dt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let env = environment.map { "\($0.key)=\($0.value)" }
        // Started through SpawnedProcess: the tmux server it forks must not inherit a test's pipes.
        let client = try SpawnedProcess(
            ["tmux", "-L", socket, "new-session", "-d", "-x", "200", "-y", "30", "env"] + env + command)
        guard client.wait(timeout: 10) else { throw TestError.failed("tmux new-session did not return") }
    }

    deinit { close() }

    public func screen() -> String { (try? Shell.run(["tmux", "-L", socket, "capture-pane", "-p"]).stdout) ?? "" }
    public func press(_ keys: String) throws { try Shell.check(["tmux", "-L", socket, "send-keys", "-l", keys]) }
    public var isRunning: Bool { (try? Shell.run(["tmux", "-L", socket, "has-session"]).status) == 0 }

    /// Waits until the screen shows `text`; false after `timeout` seconds.
    public func waitFor(_ text: String, timeout: Double = 10) throws -> Bool {
        try Shell.waitUntil(timeout: timeout) { screen().contains(text) }
    }

    /// Presses q and waits for the player to exit.
    public func quit() throws -> Bool {
        try press("q")
        return try Shell.waitUntil(timeout: 10) { !isRunning }
    }

    public func close() { _ = try? Shell.run(["tmux", "-L", socket, "kill-server"]) }
}
