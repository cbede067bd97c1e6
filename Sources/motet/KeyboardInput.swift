#if canImport(Glibc)
import Glibc
#endif
import MotetCore

/// Reads keys from a terminal in raw mode and turns them into player commands:
/// space pause, n next, p previous, l like, d dislike, u unlike, ← → seek 5 s, + - volume, q quit.
///
/// Not Sendable: the saved terminal settings are touched only by the main thread (start, restore);
/// the reader thread gets its own `Reader`, which holds nothing but thread-safe closures.
final class KeyboardInput {
    private var saved = termios()
    private var active = false

    /// Puts stdin in raw mode (no echo, no line buffering) when it is a terminal.
    func start(send: @escaping @Sendable (PlayerCommand) -> Void) {
        guard isatty(0) == 1, tcgetattr(0, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(0, TCSANOW, &raw)
        active = true
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Reader(send: send)).toOpaque()
        pthread_create(&thread, nil, { raw in
            Unmanaged<Reader>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, box)
        pthread_detach(thread)
    }

    /// Gives the terminal back as it was.
    func restore() {
        if active { tcsetattr(0, TCSANOW, &saved) }
        active = false
    }

    private final class Reader: Sendable {
        let send: @Sendable (PlayerCommand) -> Void
        init(send: @escaping @Sendable (PlayerCommand) -> Void) {
            self.send = send
        }

        func run() {
            var escape: [UInt8] = []
            var byte: UInt8 = 0
            while read(0, &byte, 1) == 1 {
                if !escape.isEmpty || byte == 0x1b {
                    escape.append(byte)
                    if escape.count == 3 {
                        if escape == [0x1b, 0x5b, 0x43] { send(.seekRelative(5_000_000)) }
                        if escape == [0x1b, 0x5b, 0x44] { send(.seekRelative(-5_000_000)) }
                        escape.removeAll()
                    } else if escape.count == 2 && escape[1] != 0x5b {
                        escape.removeAll()
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: " "): send(.toggle)
                case UInt8(ascii: "n"): send(.next)
                case UInt8(ascii: "p"): send(.previous)
                case UInt8(ascii: "l"): send(.like)
                case UInt8(ascii: "d"): send(.dislike)
                case UInt8(ascii: "u"): send(.unlike)
                case UInt8(ascii: "+"), UInt8(ascii: "="): send(.changeVolume(5))
                case UInt8(ascii: "-"): send(.changeVolume(-5))
                case UInt8(ascii: "q"): send(.quit)
                default: break
                }
            }
        }
    }
}
