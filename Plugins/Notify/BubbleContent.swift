import MotetPluginKit

/// What one notification bubble shows, derived from a now-playing event. Two equal contents need
/// no new `Notify` call (so elapsed-time and rate changes do not flash the bubble).
struct BubbleContent: Equatable {
    var summary: String
    var body: String
    /// A `file://` URI of the cached artwork, or nil.
    var imageURI: String?
    /// Alternating action keys and labels, as `Notify` wants them.
    var actions: [String]

    /// Longest summary or body kept, in Unicode scalars; the rest becomes "…".
    static let maximumLength = 500

    /// The bubble for `info`, which must have a track. `markup`: the server parses body markup, so
    /// `&`, `<` and `>` are escaped to show as themselves. `actions`: the server shows buttons.
    init(_ info: NowPlayingInfo, markup: Bool, actions withActions: Bool) {
        // The player names an untagged file's track after the file (the same title everywhere);
        // a stream's song without a title shows the station, and the station stands in for a
        // missing artist (where the song comes from).
        let station = info.station.flatMap { $0.isEmpty ? nil : $0 }
        summary = Self.visible(info.title ?? station ?? "Motet")
        let artist = info.artist.flatMap { $0.isEmpty ? nil : $0 } ?? (info.title != nil ? station : nil)
        let parts = [artist, info.album].compactMap { $0 }.filter { !$0.isEmpty }
        let plainBody = Self.visible(parts.joined(separator: " — "))
        body = markup ? Self.escapeMarkup(plainBody) : plainBody
        imageURI = info.artwork?.path.map(Self.fileURI)
        actions = []
        if withActions {
            actions += ["like", info.likeActive ? "♥ Liked" : "♡ Like"]
            actions += ["dislike", info.dislikeActive ? "✖ Disliked" : "Dislike"]
            if info.nextEnabled { actions += ["next", "Skip"] }
        }
    }

    /// Hostile tag text made safe to show: control characters become `\xHH` (C1: `\u00HH`),
    /// and overly long text is cut.
    static func visible(_ text: String) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= maximumLength {
                out += "…"
                break
            }
            let v = scalar.value
            if v < 0x20 || v == 0x7f {
                out += "\\x" + hex(v, digits: 2)
            } else if v >= 0x80, v < 0xa0 {
                out += "\\u" + hex(v, digits: 4)
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// Escapes the five XML specials for servers with `body-markup`.
    static func escapeMarkup(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `file://` + the path percent-encoded (RFC 8089/3986): everything but unreserved
    /// characters and `/` is escaped, byte by byte.
    static func fileURI(_ path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + hex(UInt32(byte), digits: 2).uppercased()
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
