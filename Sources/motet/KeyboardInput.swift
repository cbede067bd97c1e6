#if canImport(Glibc)
import Glibc
#endif
import MotetConfiguration
import MotetPlayback
import MotetOutput
import MotetSystem

/// Reads keys from the terminal and turns them into player commands (see `keys`), or into what
/// the console does itself: `?`/`h` list the keys, Ctrl-L redraws.
///
/// It reads only while Motet is the terminal's foreground job: a read from the background would
/// take the shell's input (or stop the process with SIGTTIN). SIGTTIN is blocked, so a read that
/// races a move to the background fails with EIO instead, and the reader waits. It says when
/// Motet moves to the background (`background`, also at the start of `motet FILE &`) and when it
/// comes back (`foreground`), so that the status line stops and raw mode and the line come back.
///
/// The keys come from `KeyboardTerminal` (stdin, or the controlling terminal when stdin is a pipe).
/// In the foreground it sleeps in `poll` on that terminal and a wake-up pipe, with no timeout: a
/// foreground job leaves the foreground only by being stopped (Ctrl-Z), and the SIGCONT that
/// continues it calls `recheck`, which ends the poll. In the background it looks once a second
/// (`backgroundCheck`): bash's `fg` of a running job only hands it the terminal, with no
/// SIGCONT (bash sends one only to a stopped job), and the kernel tells no one when a terminal's
/// foreground group changes, so looking is the only way; once a second brings the status line
/// back as soon as its own pace would. It runs in a terminal only, never headless.
final class KeyboardInput: Sendable {
    private let wake = WakeupPipe()

    /// What a key asks of the console rather than of the player.
    enum ConsoleKey: Sendable { case help, redraw }

    /// The keys, as `?` lists them and the README and `--help` document them. `Q` is `q` (caps
    /// lock); Esc alone does nothing, since it also starts the arrow keys' sequences.
    static let keys = KeyTable.oneLine

    /// How often a background reader looks whether it is the foreground job again.
    static let backgroundCheck: Duration = .seconds(1)

    /// Starts the reader thread on the terminal `fd` (`KeyboardTerminal`).
    func start(
        fd: Int32, send: @escaping @Sendable (PlayerCommand) -> Void, console: @escaping @Sendable (ConsoleKey) -> Void,
        foreground: @escaping @Sendable () -> Void, background: @escaping @Sendable () -> Void
    ) {
        guard isatty(fd) == 1 else { return }
        var thread = pthread_t()
        let reader = Reader(fd: fd, send: send, console: console, foreground: foreground, background: background, wake: wake)
        let box = Unmanaged.passRetained(reader).toOpaque()
        pthread_create(&thread, nil, { raw in
            Unmanaged<Reader>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        pthread_detach(thread)
    }

    /// The process was continued (SIGCONT: `fg` or `bg` after a stop): the reader looks again at
    /// whether it is in the foreground. Any thread.
    func recheck() { wake.signal() }

    private final class Reader {
        let fd: Int32
        let send: @Sendable (PlayerCommand) -> Void
        let console: @Sendable (ConsoleKey) -> Void
        let foreground: @Sendable () -> Void
        let background: @Sendable () -> Void
        let wake: WakeupPipe
        var escape: [UInt8] = []

        init(
            fd: Int32, send: @escaping @Sendable (PlayerCommand) -> Void, console: @escaping @Sendable (ConsoleKey) -> Void,
            foreground: @escaping @Sendable () -> Void, background: @escaping @Sendable () -> Void, wake: WakeupPipe
        ) {
            self.fd = fd
            self.send = send
            self.console = console
            self.foreground = foreground
            self.background = background
            self.wake = wake
        }

        func run() {
            PosixThread.nameThisThread("motet-keys")
            var bytes = [UInt8](repeating: 0, count: 64)
            var wasInForeground = TerminalMode.isForeground(fd)
            if !wasInForeground { background() }
            while true {
                guard TerminalMode.isForeground(fd) else {
                    if wasInForeground {
                        wasInForeground = false
                        background()
                    }
                    wake.sleep(until: .now() + KeyboardInput.backgroundCheck)
                    continue
                }
                if !wasInForeground {
                    wasInForeground = true
                    foreground()
                }
                var fds = [
                    pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake.pollDescriptor, events: Int16(POLLIN), revents: 0),
                ]
                // No timeout: leaving the foreground takes a stop, and the SIGCONT after it
                // signals `wake`.
                guard poll(&fds, 2, -1) > 0 else { continue }
                if fds[1].revents != 0 {
                    _ = wake.take()
                    continue
                }
                guard fds[0].revents != 0, TerminalMode.isForeground(fd) else { continue }
                let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n == 0 { return }  // the terminal is gone
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN || errno == EIO { continue }
                    return
                }
                for byte in bytes[0..<n] { take(byte) }
            }
        }

        func take(_ byte: UInt8) {
            // Arrows: ESC [ A/B/C/D, or ESC O A/B/C/D (application cursor mode): → ← seek 5 s,
            // ↑ ↓ 60 s (as in mpv). ESC followed by anything else was a lone Esc (ignored): that
            // byte is an ordinary key.
            if byte == 0x1b || escape.count == 2 || (escape.count == 1 && (byte == 0x5b || byte == 0x4f)) {
                escape.append(byte)
                if escape.count == 3 {
                    switch escape[2] {
                    case 0x41: send(.seekRelative(60_000_000))
                    case 0x42: send(.seekRelative(-60_000_000))
                    case 0x43: send(.seekRelative(5_000_000))
                    case 0x44: send(.seekRelative(-5_000_000))
                    default: break
                    }
                    escape.removeAll()
                }
                return
            }
            escape.removeAll()
            switch byte {
            case UInt8(ascii: " "): send(.toggle)
            case UInt8(ascii: "n"): send(.next)
            case UInt8(ascii: "p"): send(.previous)
            case UInt8(ascii: "l"): send(.like)
            case UInt8(ascii: "d"): send(.dislike)
            case UInt8(ascii: "u"): send(.unlike)
            case UInt8(ascii: "+"), UInt8(ascii: "="): send(.changeVolume(5))
            case UInt8(ascii: "-"): send(.changeVolume(-5))
            case UInt8(ascii: "m"): send(.toggleMute)
            case UInt8(ascii: "s"): send(.toggleShuffle)
            case UInt8(ascii: "r"): send(.toggleLoop)
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): send(.quit)
            case UInt8(ascii: "?"), UInt8(ascii: "h"): console(.help)
            case 0x0c: console(.redraw)  // Ctrl-L
            default: break
            }
        }
    }
}
