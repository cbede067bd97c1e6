import Foundation

/// motet in a real terminal (a detached tmux session on a private server socket), so a test can
/// press the player's keys (space pause, n next, l like, d dislike, q quit), resize the window, and
/// run job control through an interactive shell.
public final class PlayerTerminal {
    public let socket: String

    /// `command` in a terminal `columns` wide; for job control (Ctrl-Z, `fg`, `CMD &`) run
    /// `bash --norc -i` and `type` the player's command line into it.
    public init(command: [String], environment: [String: String], columns: Int = 200, rows: Int = 30) throws {
        socket = "motet-dt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let env = environment.map { "\($0.key)=\($0.value)" }
        // Started through SpawnedProcess: the tmux server it forks must not inherit a test's pipes.
        let client = try SpawnedProcess(
            ["tmux", "-L", socket, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "env"] + env + command)
        guard client.wait(timeout: 10) else { throw TestError.failed("tmux new-session did not return") }
    }

    deinit { close() }

    /// The screen as a person sees it: without the bidi isolate marks (FSI, PDI) that wrap each
    /// field of the status line, which take no column and show nothing (`rawScreen` keeps them).
    public func screen() -> String { Self.visible(rawScreen()) }
    static func visible(_ text: String) -> String { text.filter { $0 != "\u{2068}" && $0 != "\u{2069}" } }
    /// The screen as tmux holds it.
    public func rawScreen() -> String { (try? Shell.run(["tmux", "-L", socket, "capture-pane", "-p"]).stdout) ?? "" }
    public func press(_ keys: String) throws { try Shell.check(["tmux", "-L", socket, "send-keys", "-l", keys]) }
    /// The process in the pane (the command, which `env` became).
    public func pid() throws -> Int32 {
        let out = try Shell.run(["tmux", "-L", socket, "display-message", "-p", "#{pane_pid}"]).stdout
        guard let pid = Int32(out.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw TestError.failed("no pane pid: \(out)") }
        return pid
    }
    public var isRunning: Bool { (try? Shell.run(["tmux", "-L", socket, "has-session"]).status) == 0 }

    /// The screen's non-empty rows, top to bottom.
    public func rows() -> [String] { screen().split(separator: "\n").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) } }
    /// The row the cursor is on and the cursor's column, read in one tmux command with the screen
    /// (two commands could see the cursor before a line feed and the rows after it).
    public func cursor() -> (row: String, column: Int) {
        let out = (try? Shell.run(["tmux", "-L", socket, "display", "-p", "#{cursor_x} #{cursor_y}", ";", "capture-pane", "-p"]).stdout) ?? ""
        var lines = Self.visible(out).split(separator: "\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return ("", -1) }
        let numbers = lines.removeFirst().split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2 else { return ("", -1) }
        return (numbers[1] < lines.count ? String(lines[numbers[1]]) : "", numbers[0])
    }
    /// The glyphs a status line starts with, one per state (`StatusLine.glyph`).
    public static let stateGlyphs: [Character] = ["▶", "⏸", "■", "◌", "⋯", "⊘"]
    /// The status line: the cursor's row when it is one, else "". The player writes a line above
    /// the status line ("Playing: title — artist — album") and the terminal has the cursor on that
    /// line until its line feed arrives: a row that merely holds the cursor is not the status line.
    public func statusLine() -> String {
        let row = cursor().row
        return row.first.map(Self.stateGlyphs.contains) == true ? row : ""
    }
    /// Presses named keys (`C-z`, `C-l`, `Enter`, `Escape`).
    public func pressKey(_ names: String...) throws { try Shell.check(["tmux", "-L", socket, "send-keys"] + names) }
    /// Types a line into a shell and presses Enter.
    public func type(_ line: String) throws {
        try press(line)
        try pressKey("Enter")
    }
    public func resize(columns: Int) throws { try Shell.check(["tmux", "-L", socket, "resize-window", "-x", "\(columns)"]) }
    /// Copies every byte the programs write to the terminal from now on into `path`.
    public func record(to path: String) throws {
        try Shell.check(["tmux", "-L", socket, "pipe-pane", "-o", "cat > '\(path)'"])
    }

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
