#if canImport(Glibc)
import Glibc
#endif
import MotetCore

/// Everything the person sees: on a terminal, a status line redrawn in place (and messages above
/// it); otherwise plain one-line events. Title, artist and album are always shown, plugins or not.
final class Console: Sendable {
    enum Mode: Sendable { case line, events, quiet }

    let mode: Mode
    private let state = Locked(State())

    private struct State {
        var lastLine = ""
        var lastTrackID: UInt64 = 0
        var lastStatus: PlaybackStatus?
        var lastFlags = (liked: false, disliked: false)
    }

    init(mode: Mode) { self.mode = mode }

    /// One message line (errors, notices) on stderr, above the status line.
    func message(_ text: String) {
        state.withLock { s in
            if mode == .line && !s.lastLine.isEmpty { Self.write(2, "\r\u{1b}[K") }
            Self.write(2, text + "\n")
            if mode == .line && !s.lastLine.isEmpty { Self.write(2, s.lastLine) }
        }
    }

    /// Events, in events mode: a line when a track starts, the state changes, or feedback changes.
    func handle(_ event: PlayerEvent) {
        guard mode != .quiet else { return }
        switch event {
        case .nowPlaying(let np):
            state.withLock { s in
                guard let track = np.track else {
                    s.lastTrackID = 0
                    return
                }
                let flags = (np.liked, np.disliked)
                if np.trackID != s.lastTrackID {
                    s.lastTrackID = np.trackID
                    s.lastFlags = flags
                    let rating = np.liked ? " [liked]" : np.disliked ? " [disliked]" : ""
                    let line = "Playing: " + Self.describe(track) + rating
                    if mode == .line { s.lastLine = "" ; Self.write(2, "\r\u{1b}[K") }
                    Self.write(mode == .events ? 1 : 2, line + "\n")
                } else if flags != s.lastFlags, mode == .events {
                    s.lastFlags = flags
                    Self.write(1, np.liked ? "Liked\n" : np.disliked ? "Disliked\n" : "Rating cleared\n")
                }
            }
        case .playbackState(let st):
            guard mode == .events else { return }
            state.withLock { s in
                if s.lastStatus != st.status, st.status != .loading {
                    s.lastStatus = st.status
                    Self.write(1, "State: \(st.status.name)\n")
                }
            }
        case .trackFinished(let f) where mode == .events:
            Self.write(1, "Finished: \(TerminalText.safe(f.title ?? f.filePath ?? "?")) (\(f.successfully ? "ok" : "failed"), \(f.reason))\n")
        case .interruptionBegan(let r) where mode == .events:
            Self.write(1, "Interrupted: \(r)\n")
        case .interruptionEnded(let r) where mode == .events:
            Self.write(1, "Interruption ended: \(r)\n")
        default:
            break
        }
    }

    /// The status line, on a terminal.
    func show(_ d: PlayerDisplay) {
        guard mode == .line else { return }
        let np = d.nowPlaying
        var line: String
        if let track = np.track {
            let symbol = switch d.status {
            case .playing: "▶"
            case .paused: "⏸"
            case .interrupted: "⏸ interrupted"
            case .stalled: "… stalled"
            default: "■"
            }
            let elapsed = np.elapsedMicros ?? 0
            var bar = ""
            if let duration = track.durationMicros, duration > 0 {
                let width = 20
                let filled = Int(min(Int64(width), elapsed * Int64(width) / duration))
                bar = " [" + String(repeating: "=", count: filled) + String(repeating: "-", count: width - filled) + "]"
            }
            line = "\(symbol) \(Self.describe(track))  \(TerminalText.time(elapsed)) / \(TerminalText.time(track.durationMicros))\(bar)"
            if np.liked { line += "  ♥ liked" }
            if np.disliked { line += "  ✗ disliked" }
            if let left = d.skipsLeft { line += "  skips left: \(left)" }
            if !np.nextEnabled { line += "  (no skip)" }
            if d.volume != 100 { line += "  vol \(d.volume)%" }
        } else {
            line = d.status == .complete ? "■ done" : "■ \(d.status.name)"
        }
        let width = Self.terminalWidth()
        if line.count > width - 1 { line = String(line.prefix(max(10, width - 2))) + "…" }
        state.withLock { s in
            guard line != s.lastLine else { return }
            s.lastLine = line
            Self.write(2, "\r\u{1b}[K" + line)
        }
    }

    /// Leaves the terminal tidy at exit.
    func finish() {
        if mode == .line { state.withLock { s in if !s.lastLine.isEmpty { Self.write(2, "\n") } } }
    }

    static func describe(_ track: TrackInfo) -> String {
        let title = TerminalText.safe(track.title ?? track.filePath.map(Self.basename) ?? "(untitled)")
        let artist = TerminalText.safe(track.joinedArtists ?? "Unknown artist")
        let album = TerminalText.safe(track.album ?? "Unknown album")
        return "\(title) — \(artist) — \(album)"
    }

    static func basename(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func write(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { if errno == EINTR { continue } else { return } }
                off += n
            }
        }
    }

    static func terminalWidth() -> Int {
        var ws = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        return 80
    }
}
