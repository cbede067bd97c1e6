import MotetPlayback

/// The text of the status line for a terminal width, laid out by priority so that what matters
/// survives a narrow window: the state glyph, elapsed / duration, the like mark and a short-lived
/// notice (volume, like) first; then title — artist — album, shortened with "…" (the album goes
/// first, then the artist); then, only once all three are whole, the station's name, the volume
/// (or "muted"), "shuffle", "loop", the skip limit ("skips left: N") or "last track" (no next
/// track), the key hint and the progress bar, in that order, each only when all before it are
/// shown — so a wider window never shows less of what matters than a narrower one. A stream
/// shows its station's name right after the title and its genre last; a live stream has no
/// duration, so elapsed (from the start of the song) stands alone, with no bar.
///
/// The last column stays empty: a line that fills the width leaves the cursor in the terminal's
/// pending-wrap state, and the next `\r` redraw or a resize then wraps it onto a second row.
enum StatusLine {
    /// What the key hint says; `?` (or `h`) prints the keys.
    static let keyHint = "? keys"

    /// The glyph for each state, distinct for every state a track can be in.
    static func glyph(_ status: PlaybackStatus) -> String {
        switch status {
        case .playing: "▶"
        case .paused: "⏸"
        case .stopped, .complete: "■"
        case .loading: "◌"
        case .stalled: "⋯"
        case .interrupted: "⊘"
        }
    }

    /// The line for `display` in a terminal `columns` wide; `notice` is a short-lived message
    /// (e.g. "vol 70%") shown right after the like mark.
    static func text(_ display: PlayerDisplay, columns: Int, notice: String? = nil) -> String {
        let room = max(1, columns - 1)
        let np = display.nowPlaying
        guard let track = np.track else {
            let state = display.status == .complete ? "■ done" : "\(glyph(display.status)) \(display.status.name)"
            let line = ColumnWidth.of(state + "  " + keyHint) <= room ? state + "  " + keyHint : state
            return ColumnWidth.fitted(line, columns: room)
        }
        var head = glyph(display.status)
        if ![.playing, .paused].contains(display.status) { head += " " + display.status.name }
        head += " " + TerminalText.time(np.elapsedMicros ?? 0)
        if let duration = track.durationMicros { head += " / " + TerminalText.time(duration) }
        // Two tracks sound at once: say why.
        if let fade = display.crossfade { head += " ⤳ \(fade.secondsText) s" }
        if np.liked { head += " ♥" } else if np.disliked { head += " ✗" }
        if let notice { head += " " + notice }
        let headWidth = ColumnWidth.of(head)
        guard headWidth + 2 <= room else { return ColumnWidth.fitted(head, columns: room) }

        let title = Console.describe(track, isolated: true)
        var left = room - headWidth - 1
        let titleWidth = ColumnWidth.of(title)
        guard titleWidth <= left else { return head + " " + TerminalText.closingIsolates(ColumnWidth.fitted(title, columns: left)) }
        left -= titleWidth
        // In order of importance, up to the first that does not fit.
        var shown: [(place: Int, text: String)] = []
        for part in optionalParts(display, notice: notice) {
            let width = ColumnWidth.of(part.text) + 2
            guard width <= left else { break }
            shown.append(part)
            left -= width
        }
        let tail = shown.sorted { $0.place < $1.place }.map { "  " + $0.text }.joined()
        return head + " " + title + tail
    }

    /// What may follow the title, most wanted first, each with its place on the line.
    private static func optionalParts(_ display: PlayerDisplay, notice: String?) -> [(place: Int, text: String)] {
        let np = display.nowPlaying
        var parts: [(place: Int, text: String)] = []
        let station = np.track?.station
        if let name = station?.name { parts.append((-2, TerminalText.isolated(TerminalText.safe(name)))) }
        let volume = "vol \(display.volume)%"
        if display.muted {
            parts.append((1, "muted"))
        } else if display.volume != 100 && notice != volume {
            parts.append((1, volume))
        }
        if display.shuffle { parts.append((2, "shuffle")) }
        if display.loop { parts.append((3, "loop")) }
        if let left = display.skipsLeft { parts.append((4, "skips left: \(left)")) }
        // Next is off (NextDisabledReason): at the skip limit "skips left: 0" says why; otherwise
        // nothing follows (not said of a live stream, which has no tracks of its own to count).
        if np.nextDisabledReason == .lastTrack && np.track?.durationMicros != nil { parts.append((5, "last track")) }
        parts.append((6, keyHint))
        if let duration = np.track?.durationMicros, duration > 0 {
            let width = 20
            let elapsed = max(0, np.elapsedMicros ?? 0)
            let filled = Int(min(Int64(width), elapsed * Int64(width) / duration))
            parts.append((0, "[" + String(repeating: "=", count: filled) + String(repeating: "-", count: width - filled) + "]"))
        }
        if let genre = station?.genre { parts.append((-1, "(" + TerminalText.isolated(TerminalText.safe(genre)) + ")")) }
        return parts
    }
}
