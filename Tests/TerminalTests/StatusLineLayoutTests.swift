import MotetEvents
import Testing

@testable import MotetPlayback
@testable import motet

/// The status line's layout at every width: what matters most is shown first, and a wider
/// terminal never shows less of it than a narrower one (README: "most important first").
@Suite struct StatusLineLayoutTests {
    /// The parts of a line, most important first, each with how to tell it is shown whole.
    static func parts(_ d: PlayerDisplay) -> [(name: String, text: String)] {
        let t = d.nowPlaying.track!
        let isolated = TerminalText.isolated
        var parts: [(String, String)] = [
            ("title", isolated(t.title!)), ("artist", "— " + isolated(t.artists.joined(separator: ", "))), ("album", "— " + isolated(t.album!)),
        ]
        if let name = t.station?.name { parts.append(("station", isolated(name))) }
        if d.muted { parts.append(("muted", "muted")) } else if d.volume != 100 { parts.append(("volume", "vol \(d.volume)%")) }
        if d.shuffle { parts.append(("shuffle", "shuffle")) }
        if d.loop { parts.append(("loop", "loop")) }
        if let left = d.skipsLeft { parts.append(("skips", "skips left: \(left)")) }
        parts.append(("keys", StatusLine.keyHint))
        if t.durationMicros != nil { parts.append(("bar", "[")) }
        return parts
    }

    static func display(
        station: StationInfo? = nil, duration: Int64? = 200_000_000, volume: Int = 80, skipsLeft: Int? = 2, shuffle: Bool = false,
        loop: Bool = false, muted: Bool = false
    ) -> PlayerDisplay {
        let track = TrackInfo(
            title: "A Fairly Long Song Title", artists: ["Some Artist"], album: "The Album Name", durationMicros: duration,
            artwork: nil, filePath: "/music/a.ogg", station: station)
        let np = NowPlaying(
            track: track, trackID: 1, elapsedMicros: 65_000_000, elapsedAtMicros: 0, rate: 1, liked: true, disliked: false,
            nextEnabled: true, previousEnabled: true)
        return PlayerDisplay(
            nowPlaying: np, status: .playing, volume: volume, skipsLeft: skipsLeft, shuffle: shuffle, loop: loop, muted: muted)
    }

    static let displays = [
        display(),
        display(volume: 100, skipsLeft: nil),
        display(skipsLeft: nil, shuffle: true, loop: true, muted: true),
        display(station: StationInfo(name: "Radio Ada", genre: "Baroque"), duration: nil, skipsLeft: nil),
    ]

    @Test(arguments: 0..<displays.count)
    func theOrderOfImportanceHoldsAtEveryWidth(index: Int) {
        let d = Self.displays[index]
        let parts = Self.parts(d)
        var previouslyShown = 0
        var problems: [String] = []
        for columns in 20...200 {
            let line = StatusLine.text(d, columns: columns)
            if ColumnWidth.of(line) > columns - 1 || !line.hasPrefix("▶ 1:05") { problems.append("\(columns) too wide: \(line)") }
            // The parts shown whole are a prefix of the list: nothing less important is shown
            // while something more important is cut or missing.
            let whole = parts.map { line.contains($0.text) }
            let shown = whole.prefix { $0 }.count
            if let out = whole.dropFirst(shown).firstIndex(of: true) {
                problems.append("\(columns): \(parts[out].name) shown without \(parts[shown].name): \(line)")
            }
            // A wider terminal shows at least as much.
            if shown < previouslyShown { problems.append("\(columns) shows less than \(columns - 1): \(line)") }
            previouslyShown = shown
        }
        #expect(problems.isEmpty, "\(problems.count) widths wrong, first: \(problems.prefix(3))")
        #expect(previouslyShown == parts.count, "at 200 columns everything is shown")
    }
}

extension StatusLineLayoutTests {
    @Test func shuffleLoopAndMuteAreShownWhenOnAndTheLastTrackIsNotCalledASkipLimit() {
        let on = StatusLine.text(Self.display(skipsLeft: nil, shuffle: true, loop: true, muted: true), columns: 200)
        #expect(on.contains("muted  shuffle  loop"), "\(on)")
        #expect(!on.contains("vol 80%"), "\(on)")
        let off = StatusLine.text(Self.display(skipsLeft: nil), columns: 200)
        #expect(!off.contains("shuffle") && !off.contains("loop") && !off.contains("muted"), "\(off)")
        // Nothing follows the last track: said as such, not as "(no skip)", which read like the
        // skip limit; at the skip limit "skips left: 0" says it.
        var last = Self.display(skipsLeft: nil)
        last.nowPlaying.nextEnabled = false
        last.nowPlaying.nextDisabledReason = .lastTrack
        let lastLine = StatusLine.text(last, columns: 200)
        #expect(lastLine.contains("last track") && !lastLine.contains("skip"), "\(lastLine)")
        var limited = Self.display(skipsLeft: 0)
        limited.nowPlaying.nextEnabled = false
        limited.nowPlaying.nextDisabledReason = .skipLimit
        let limitedLine = StatusLine.text(limited, columns: 200)
        #expect(limitedLine.contains("skips left: 0") && !limitedLine.contains("last track"), "\(limitedLine)")
    }
}

/// A crossfade shows beside the time while two tracks sound at once (README, "Crossfade and fades").
@Suite struct StatusLineCrossfadeTests {
    @Test func aCrossfadeShowsBesideTheTimeAndNotOtherwise() {
        var d = StatusLineLayoutTests.display()
        #expect(!StatusLine.text(d, columns: 120).contains("⤳"))
        d.crossfade = .seconds(5)
        let line = StatusLine.text(d, columns: 120)
        #expect(line.contains("1:05 / 3:20 ⤳ 5 s"), "\(line)")
    }
}
