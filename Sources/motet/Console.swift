#if canImport(Glibc)
import Glibc
#endif
import MotetPlayback
import MotetSystem

/// Everything the person sees: on a terminal, a status line redrawn in place (and messages above
/// it); otherwise plain one-line events. Title, artist and album are always shown, plugins or not.
///
/// The status line is drawn only while Motet is the terminal's foreground job (a background job
/// must leave the shell's screen alone); it is laid out by `StatusLine` for the terminal's width,
/// measured in columns. On `TERM=dumb` no escape sequence is sent: the line is overwritten with
/// spaces instead.
final class Console: Sendable {
    enum Mode: Sendable { case line, events, quiet }

    /// How long a notice (volume, like) stays on the status line.
    static let noticeTime: Duration = .seconds(3)

    let mode: Mode
    private let dumb: Bool
    private let state = Locked(State())

    private struct State {
        /// The status line as drawn (empty when none is on the screen), its width in columns, and
        /// the terminal's width then.
        var lastLine = ""
        var lastLineColumns = 0
        var terminalColumns = 0
        /// What the status line shows, kept to redraw it on a resize, Ctrl-L or `fg`.
        var display: PlayerDisplay?
        /// A short-lived notice and, for a rating, the track it was given to: it is not shown
        /// beside another track (a dislike moves on at once).
        var notice: (text: String, until: MonotonicInstant, trackID: UInt64?)?
        var lastVolume: Int?
        var lastRating: (trackID: UInt64, liked: Bool, disliked: Bool)?
        // Events mode.
        var lastTrackID: UInt64 = 0
        var lastStatus: PlaybackStatus?
        var lastFlags = (liked: false, disliked: false)
    }

    init(mode: Mode, environment: [String: String] = [:]) {
        self.mode = mode
        dumb = environment["TERM"] == "dumb"
    }

    /// One message line (errors, notices) on stderr, above the status line.
    func message(_ text: String) {
        state.withLock { s in
            let redraw = mode == .line && !s.lastLine.isEmpty && TerminalMode.isForeground(2)
            Self.write(2, (redraw ? reflowErase(s, columns: Self.terminalColumns()) ?? erase(s) : "") + text + "\n")
            if redraw {
                s.lastLine = ""
                draw(&s)
            }
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
                    let line = "Playing: " + Self.describe(track, isolated: mode == .line) + rating
                    if mode == .events {
                        Self.write(1, line + "\n")
                    } else if TerminalMode.isForeground(2) {
                        Self.write(2, erase(s) + line + "\n")
                        s.lastLine = ""
                    }
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
        case .trackStarted(let started) where mode == .events:
            if let fade = started.crossfade { Self.write(1, "Crossfade: \(fade.secondsText) s\n") }
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

    /// The status line, on a terminal. A volume or rating change is also shown for a few seconds
    /// right after the like mark, so it is seen in a narrow window.
    func show(_ d: PlayerDisplay) {
        guard mode == .line else { return }
        state.withLock { s in
            let np = d.nowPlaying
            if let last = s.lastVolume, last != d.volume { notify(&s, "vol \(d.volume)%") }
            s.lastVolume = d.volume
            if let last = s.lastRating, last.trackID == np.trackID, (last.liked, last.disliked) != (np.liked, np.disliked) {
                notify(&s, np.liked ? "liked" : np.disliked ? "disliked" : "rating cleared", track: np.trackID)
            }
            s.lastRating = (np.trackID, np.liked, np.disliked)
            s.display = d
            draw(&s)
        }
    }

    /// After a resize (SIGWINCH): the line is drawn again for the new width (`draw` clears what a
    /// reflowing terminal made of the old one).
    func resize() {
        guard mode == .line else { return }
        state.withLock { s in
            guard !s.lastLine.isEmpty, TerminalMode.isForeground(2) else { return }
            draw(&s, .inPlace)
        }
    }

    /// Ctrl-L: clears the screen and draws the status line again, as shells do.
    func redrawAll() {
        guard mode == .line else { return }
        state.withLock { s in
            guard TerminalMode.isForeground(2) else { return }
            s.lastLine = ""
            draw(&s, .clearScreen)
        }
    }

    /// Before the process stops (Ctrl-Z): the status line stays, the shell writes below it.
    func suspend() {
        guard mode == .line else { return }
        state.withLock { s in
            if !s.lastLine.isEmpty, TerminalMode.isForeground(2) { Self.write(2, "\n") }
            s.lastLine = ""
        }
    }

    /// After SIGCONT, or back in the foreground: draws the status line again (on the cursor's row,
    /// which is a fresh one after the shell's `fg`).
    func resume() {
        guard mode == .line else { return }
        state.withLock { s in draw(&s, .inPlace) }
    }

    /// Leaves the terminal tidy at exit.
    func finish() {
        if mode == .line {
            state.withLock { s in if !s.lastLine.isEmpty, TerminalMode.isForeground(2) { Self.write(2, "\n") } }
        }
    }

    private func notify(_ s: inout State, _ text: String, track: UInt64? = nil) {
        s.notice = (text, MonotonicInstant.now() + Self.noticeTime, track)
    }

    /// How `draw` starts: only if the line changed, over the row it is on, or on a cleared screen.
    private enum Redraw { case ifChanged, inPlace, clearScreen }

    /// Draws the status line (for `.ifChanged`, only when it changed).
    private func draw(_ s: inout State, _ redraw: Redraw = .ifChanged) {
        guard let d = s.display, TerminalMode.isForeground(2) else { return }
        if let notice = s.notice, notice.until < MonotonicInstant.now() || (notice.trackID.map { $0 != d.nowPlaying.trackID } ?? false) {
            s.notice = nil
        }
        let columns = Self.terminalColumns()
        let line = StatusLine.text(d, columns: columns, notice: s.notice?.text)
        let reflowed = reflowErase(s, columns: columns)
        guard line != s.lastLine || redraw != .ifChanged || reflowed != nil else { return }
        let width = ColumnWidth.of(line)
        var output: String
        switch redraw {
        case .clearScreen: output = dumb ? "\n" : "\u{1b}[H\u{1b}[2J"
        case .inPlace where s.lastLine.isEmpty: output = dumb ? "\r" : "\r\u{1b}[K"
        case .inPlace, .ifChanged: output = reflowed ?? erase(s)
        }
        output += line
        if dumb, redraw == .ifChanged { output += String(repeating: " ", count: max(0, s.lastLineColumns - width)) }
        Self.write(2, output)
        s.lastLine = line
        s.lastLineColumns = width
        s.terminalColumns = columns
    }

    /// When the terminal has narrowed since the line was drawn, a terminal that reflows its lines
    /// (tmux, VTE, kitty…) has split it over several rows, with the cursor on the last: returns
    /// to the first and clears them all. Whoever draws first after a resize does this, the
    /// SIGWINCH handler or a redraw that ran before it (or a `fg` after a stop, which takes
    /// SIGCONT before SIGWINCH).
    private func reflowErase(_ s: State, columns: Int) -> String? {
        guard !dumb, !s.lastLine.isEmpty, columns < s.terminalColumns else { return nil }
        let extraRows = (s.lastLineColumns - 1) / columns
        return extraRows > 0 ? "\r\u{1b}[\(extraRows)A\u{1b}[J" : nil
    }

    /// Returns to the start of the status line's row, emptied.
    private func erase(_ s: State) -> String {
        guard !s.lastLine.isEmpty else { return "" }
        return dumb ? "\r" + String(repeating: " ", count: s.lastLineColumns) + "\r" : "\r\u{1b}[K"
    }

    /// "title — artist — album"; `isolated` (on a terminal) wraps each field in a bidi isolate
    /// (`TerminalText.isolated`), so that a right-to-left title does not reverse the whole line.
    static func describe(_ track: TrackInfo, isolated: Bool = false) -> String {
        // The player names an untagged file's track after the file (TrackTitle); a stream's by its URL.
        let fields = [track.title ?? track.url ?? "(untitled)", track.joinedArtists ?? "Unknown artist", track.album ?? "Unknown album"]
        return fields.map { isolated ? TerminalText.isolated(TerminalText.safe($0)) : TerminalText.safe($0) }.joined(separator: " — ")
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

    static func terminalColumns() -> Int {
        var ws = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        return 80
    }
}
