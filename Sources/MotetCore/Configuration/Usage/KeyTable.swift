/// The keys on a terminal, in one place: `--help`, `motet(1)` and the `?` message list them from
/// here (the executable's KeyboardInput maps the bytes to commands).
public enum KeyTable {
    /// Keys that do one thing, and what.
    public struct Entry: Sendable {
        /// The keys, as a person names them (`space`, `left`, `Ctrl-L`).
        public let keys: [String]
        /// What they do.
        public let action: String
        /// The action in a word or two, for the one-line list.
        public let brief: String
    }

    /// Every key, in the order they are listed.
    public static let all: [Entry] = [
        Entry(keys: ["space"], action: "pause or play", brief: "pause"),
        Entry(keys: ["n"], action: "next track", brief: "next"),
        Entry(keys: ["p"], action: "previous track", brief: "previous"),
        Entry(keys: ["l"], action: "like", brief: "like"),
        Entry(keys: ["d"], action: "dislike (skips the track when a skip is allowed)", brief: "dislike"),
        Entry(keys: ["u"], action: "unlike", brief: "unlike"),
        Entry(keys: ["left", "right"], action: "seek 5 s", brief: "seek 5 s"),
        Entry(keys: ["down", "up"], action: "seek 60 s", brief: "seek 60 s"),
        Entry(keys: ["+", "-"], action: "volume", brief: "volume"),
        Entry(keys: ["m"], action: "mute or unmute (the volume is kept)", brief: "mute"),
        Entry(keys: ["s"], action: "shuffle on or off (the status line says shuffle)", brief: "shuffle"),
        Entry(keys: ["r"], action: "loop the queue on or off (the status line says loop)", brief: "loop"),
        Entry(keys: ["?", "h"], action: "list the keys", brief: "keys"),
        Entry(keys: ["Ctrl-L"], action: "redraw", brief: "redraw"),
        Entry(keys: ["q", "Q"], action: "quit", brief: "quit"),
    ]

    /// What Esc does, said where the keys are listed.
    public static let escapeNote = "Esc alone does nothing (it also starts the arrow keys)."

    /// What the keys do on a live stream (no start, no length), said where the keys are listed.
    public static let liveStreamNote =
        "On a live stream: seek does nothing, p goes to the previous entry, d rates the song on air."

    /// One line for the `?` key: `keys: space pause · n next · … · ← → seek 5 s · …`.
    public static var oneLine: String {
        let arrows = ["left": "←", "right": "→", "up": "↑", "down": "↓"]
        return "keys: " + all.map { $0.keys.map { arrows[$0] ?? $0 }.joined(separator: " ") + " " + $0.brief }
            .joined(separator: " · ")
    }

    /// One line per entry, keys in a column, for `--help`.
    public static var table: String {
        all.map { entry in
            let keys = entry.keys.joined(separator: " ")
            return "  " + keys + String(repeating: " ", count: max(1, 14 - keys.count)) + entry.action
        }.joined(separator: "\n")
    }
}
