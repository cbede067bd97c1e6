import MotetCore

/// The text of the status line for a terminal width, laid out by priority so that what matters
/// survives a narrow window: the state glyph, elapsed / duration, the like mark and a short-lived
/// notice (volume, like) first; then title — artist — album, shortened with "…"; then the volume,
/// the key hint, the progress bar and the skip limit, each only when the title keeps its room.
/// A stream shows its station's name right after the title, first of these, and its genre last; a
/// live stream has no duration, so elapsed (from the start of the song) stands alone, with no bar.
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
        if np.liked { head += " ♥" } else if np.disliked { head += " ✗" }
        if let notice { head += " " + notice }
        let headWidth = ColumnWidth.of(head)
        guard headWidth + 2 <= room else { return ColumnWidth.fitted(head, columns: room) }

        let title = Console.describe(track)
        let titleWidth = ColumnWidth.of(title)
        // The title keeps this much before anything of lower priority is shown.
        let titleMinimum = min(titleWidth, 24)
        var left = room - headWidth - 1
        var shown: [(place: Int, text: String)] = []
        for part in optionalParts(display, notice: notice) {
            let width = ColumnWidth.of(part.text) + 2
            if left - width >= titleMinimum {
                shown.append(part)
                left -= width
            }
        }
        let tail = shown.sorted { $0.place < $1.place }.map { "  " + $0.text }.joined()
        return head + " " + ColumnWidth.fitted(title, columns: left) + tail
    }

    /// What may follow the title, most wanted first, each with its place on the line.
    private static func optionalParts(_ display: PlayerDisplay, notice: String?) -> [(place: Int, text: String)] {
        let np = display.nowPlaying
        var parts: [(place: Int, text: String)] = []
        let station = np.track?.station
        if let name = station?.name { parts.append((-2, TerminalText.safe(name))) }
        let volume = "vol \(display.volume)%"
        if display.volume != 100 && notice != volume { parts.append((1, volume)) }
        parts.append((4, keyHint))
        if let duration = np.track?.durationMicros, duration > 0 {
            let width = 20
            let elapsed = max(0, np.elapsedMicros ?? 0)
            let filled = Int(min(Int64(width), elapsed * Int64(width) / duration))
            parts.append((0, "[" + String(repeating: "=", count: filled) + String(repeating: "-", count: width - filled) + "]"))
        }
        if let left = display.skipsLeft { parts.append((2, "skips left: \(left)")) }
        if !np.nextEnabled { parts.append((3, "(no skip)")) }
        if let genre = station?.genre { parts.append((-1, "(" + TerminalText.safe(genre) + ")")) }
        return parts
    }
}
