#if canImport(Glibc)
import Glibc
#endif

/// Where the keys come from: standard input when it is a terminal, else the controlling terminal
/// (`/dev/tty`), as mpv does, so that `ls *.ogg | motet -` reads the list from the pipe and the
/// keys from the terminal, and `motet … >log 2>&1` still takes keys. None for a process without a
/// controlling terminal (a service, a cron job).
enum KeyboardTerminal {
    /// The keyboard's file descriptor, or nil when there is no terminal to read keys from.
    static func open() -> Int32? {
        if isatty(0) == 1 { return 0 }
        // O_NOCTTY: only ever the terminal the process already has.
        let fd = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else {
            close(fd)
            return nil
        }
        return fd
    }
}
