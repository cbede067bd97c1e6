import MotetEvents
import Testing

@testable import MotetPlayback
@testable import motet

/// Right-to-left tags on the terminal: each field of the status line is a bidi isolate (FSI …
/// PDI), so that a bidi terminal lays out "title — artist — album" in order.
@Suite struct BidiIsolationTests {
    static let fsi: Unicode.Scalar = "\u{2068}"
    static let pdi: Unicode.Scalar = "\u{2069}"

    static func display(station: StationInfo? = nil) -> PlayerDisplay {
        let track = TrackInfo(
            title: "أغنية الليل", artists: ["فرقة"], album: "אלבום", durationMicros: 200_000_000, artwork: nil,
            filePath: "/music/a.ogg", station: station)
        let np = NowPlaying(
            track: track, trackID: 1, elapsedMicros: 5_000_000, elapsedAtMicros: 0, rate: 1, liked: false, disliked: false,
            nextEnabled: true, previousEnabled: true)
        return PlayerDisplay(nowPlaying: np, status: .playing, volume: 100, skipsLeft: nil)
    }

    @Test func eachFieldIsIsolated() {
        let line = StatusLine.text(Self.display(station: StationInfo(name: "راديو", genre: "طرب")), columns: 200)
        #expect(line.contains("\u{2068}أغنية الليل\u{2069} — \u{2068}فرقة\u{2069} — \u{2068}אלבום\u{2069}"), "\(line.debugDescription)")
        #expect(line.contains("\u{2068}راديو\u{2069}") && line.contains("(\u{2068}طرب\u{2069})"), "\(line.debugDescription)")
        // The marks take no column.
        #expect(ColumnWidth.of(TerminalText.isolated("abc")) == 3)
    }

    @Test func everyIsolateIsClosedAtEveryWidth() {
        for display in [Self.display(), Self.display(station: StationInfo(name: "راديو", genre: "طرب"))] {
            for columns in 20...200 {
                let line = StatusLine.text(display, columns: columns)
                let opened = line.unicodeScalars.filter { $0 == Self.fsi }.count
                let closed = line.unicodeScalars.filter { $0 == Self.pdi }.count
                #expect(opened == closed, "\(columns): \(line.debugDescription)")
                #expect(ColumnWidth.of(line) <= columns - 1, "\(columns): \(line.debugDescription)")
                if opened != closed { break }
            }
        }
    }

    @Test func aTagCannotOpenAnIsolateOfItsOwn() {
        var display = Self.display()
        display.nowPlaying.track?.title = "evil\u{2068}title"
        let line = StatusLine.text(display, columns: 200)
        #expect(line.unicodeScalars.filter { $0 == Self.fsi }.count == 3, "\(line.debugDescription)")
    }
}
