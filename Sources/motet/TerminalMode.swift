#if canImport(Glibc)
import Glibc
#endif
import MotetPlayback
import MotetSystem

/// The keyboard terminal's modes: raw (keys without Enter, no echo) while Motet is the foreground
/// job, as the person left it otherwise.
///
/// Job control works as in mpv: Ctrl-Z gives the terminal back in line mode before the process
/// stops, and `fg` (SIGCONT) takes raw mode again. A player in the background never changes the
/// modes: it checks the terminal's foreground process group first (`tcsetattr` from the background
/// would stop the process with SIGTTOU, and the settings belong to the shell then).
final class TerminalMode: Sendable {
    private struct State {
        /// The modes to give back, read when raw mode is entered (so after `fg`, the ones the
        /// shell hands over).
        var saved = termios()
        var raw = false
        var wanted = false
    }

    private let state = Locked(State())
    /// The keyboard's terminal (`KeyboardTerminal`).
    let fd: Int32

    init(fd: Int32) { self.fd = fd }

    /// Whether this process may use the terminal on `fd` now: it is not a terminal (nothing to
    /// share), or this process's group is its foreground group.
    static func isForeground(_ fd: Int32 = 0) -> Bool {
        isatty(fd) == 0 || tcgetpgrp(fd) == getpgrp()
    }

    /// Raw mode from now on, whenever Motet is in the foreground: at once if it is.
    func start() {
        state.withLock { s in
            s.wanted = isatty(fd) == 1
            enterRaw(&s)
        }
    }

    /// Takes raw mode again after `fg` (SIGCONT), if Motet is now in the foreground.
    func resume() { state.withLock { enterRaw(&$0) } }

    /// Gives the terminal back as it was (before Ctrl-Z stops the process, and at exit).
    func suspend() {
        state.withLock { s in
            guard s.raw else { return }
            s.raw = false
            var saved = s.saved
            tcsetattr(fd, TCSANOW, &saved)
        }
    }

    /// For good: at exit.
    func restore() {
        suspend()
        state.withLock { $0.wanted = false }
    }

    private func enterRaw(_ s: inout State) {
        guard s.wanted, !s.raw, Self.isForeground(fd), tcgetattr(fd, &s.saved) == 0 else { return }
        var raw = s.saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if tcsetattr(fd, TCSANOW, &raw) == 0 { s.raw = true }
    }
}
