import Foundation
import MotetEvents
import MotetTestSupport
import Testing

@testable import MotetConfiguration
import MotetNetwork

@Suite struct PlaylistFormatTests {
    private func pls(_ text: String) -> (entries: [String], lines: [Int], notes: [String]) {
        let (entries, notes) = PLSReader.read(Array(text.utf8))
        return (entries.map(\.text), entries.map(\.line), notes.map { "\($0.line): \($0.text)" })
    }

    private func xspf(_ text: String) -> (entries: [String], lines: [Int], notes: [String]) {
        xspf(Array(text.utf8))
    }

    private func xspf(_ bytes: [UInt8]) -> (entries: [String], lines: [Int], notes: [String]) {
        let (entries, notes) = XSPFReader.read(bytes)
        return (entries.map(\.text), entries.map(\.line), notes.map { "\($0.line): \($0.text)" })
    }

    @Test func formatsAreKnownByNameAndContentType() {
        #expect(PlaylistReader.Format(name: "/a/B.M3U8") == .m3u)
        #expect(PlaylistReader.Format(name: "radio.PLS") == .pls)
        #expect(PlaylistReader.Format(name: "x.xspf") == .xspf)
        #expect(PlaylistReader.Format(name: "x.ogg") == nil)
        #expect(PlaylistReader.Format(contentType: "audio/x-mpegurl") == .m3u)
        #expect(PlaylistReader.Format(contentType: "Application/VND.Apple.MpegURL; charset=utf-8") == .m3u)
        #expect(PlaylistReader.Format(contentType: "audio/x-scpls") == .pls)
        #expect(PlaylistReader.Format(contentType: "application/xspf+xml") == .xspf)
        #expect(PlaylistReader.Format(contentType: "text/plain") == nil)
        #expect(PlaylistReader.Format(contentType: "audio/ogg") == nil)
    }

    @Test func plsEntriesComeInNumberOrderWithAnyCaseAndCRLF() {
        let r = pls("\u{FEFF}[Playlist]\r\nNumberOfEntries=3\r\nfile10=ten.ogg\r\nTitle10=Ten\r\nFILE2 = two.ogg \r\nFile1=http://radio.example:8000/live.ogg\r\nLength1=-1\r\nVersion=2\r\n")
        #expect(r.entries == ["http://radio.example:8000/live.ogg", "two.ogg", "ten.ogg"])
        #expect(r.lines == [6, 5, 3])
        #expect(r.notes.isEmpty)
    }

    @Test func plsToleratesMissingHeaderAndIgnoresOtherSections() {
        #expect(pls("File1=a.ogg\n").entries == ["a.ogg"])
        let r = pls("[other]\nFile1=no.ogg\n[playlist]\nFile1=yes.ogg\n; comment\nFile=x\nFilex=y\nfile3=b=c.ogg\n")
        #expect(r.entries == ["yes.ogg", "b=c.ogg"])
        #expect(r.notes.isEmpty)
    }

    @Test func plsHostileNumbersAndEmptyEntriesGiveOneNoteEach() {
        let r = pls("[playlist]\nFile99999999=late.ogg\nFile99999999999999999999999=huge.ogg\nFile2=\nFile1=first.ogg\nFile1=again.ogg\nNumberOfEntries=40\n")
        #expect(r.entries == ["first.ogg", "again.ogg", "late.ogg"])
        #expect(r.notes == [
            "3: the entry number in 'file99999999999999999999999' is too large; number the entries from File1.",
            "4: File2= names nothing; remove the line or give it a file or URL.",
        ])
        #expect(pls("").entries.isEmpty)
        #expect(pls("[playlist]\nNumberOfEntries=2\n").entries.isEmpty)
    }

    @Test func xspfTakesTheFirstLocationOfEachTrack() {
        let r = xspf("""
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE playlist [ <!ENTITY boom "&boom;&boom;"> ]>
            <playlist version="1" xmlns="http://xspf.org/ns/0/">
              <location>http://example.com/this-playlist.xspf</location>
              <trackList>
                <!-- <track><location>commented.ogg</location></track> -->
                <track><title>A &amp; B</title><location>http://radio.example/a%20b.ogg</location><location>alt.ogg</location></track>
                <track>
                  <location>
                    songs/R&amp;B &#233;t&#xE9;.ogg
                  </location>
                </track>
                <track><location><![CDATA[cdata <&> name.ogg]]></location></track>
                <track><location a='x>y'>file:///music/x.ogg</location></track>
              </trackList>
            </playlist>
            """)
        #expect(r.entries == ["http://radio.example/a%20b.ogg", "songs/R&B été.ogg", "cdata <&> name.ogg", "file:///music/x.ogg"])
        #expect(r.lines == [7, 9, 13, 14])
        #expect(r.notes.isEmpty)
    }

    @Test func xspfToleratesPrefixesCaseNestedTagsAndUnclosedElements() {
        let r = xspf("<xspf:playlist><xspf:trackList><xspf:track><xspf:location>a.ogg</xspf:location></xspf:track><TRACK><Location>b<b>old</b>.ogg</Location></TRACK><track><location>c.ogg</track></trackList>")
        #expect(r.entries == ["a.ogg", "bold.ogg", "c.ogg"])
    }

    @Test func xspfUnknownEntitiesAreKeptAndBadReferencesNotDecoded() {
        let r = xspf("<trackList><track><location>&nbsp;&#0;&#xD800;&#x110000;&amp&;x&lt;.ogg</location></track></trackList>")
        #expect(r.entries == ["&nbsp;&#0;&#xD800;&#x110000;&amp&;x<.ogg"])
    }

    @Test func xspfTracksWithoutALocationGiveANote() {
        let r = xspf("<trackList>\n<track><title>x</title></track>\n<track><location/></track>\n<track><location>  </location></track>\n</trackList>")
        #expect(r.entries.isEmpty)
        #expect(r.notes == [
            "2: a <track> without a <location> is not played; give it one or remove it.",
            "3: an empty <location> names nothing; give it a file or URL or remove the track.",
            "4: an empty <location> names nothing; give it a file or URL or remove the track.",
        ])
    }

    @Test func xspfDeepNestingAndTruncationEndQuietly() {
        let deep = String(repeating: "<a>", count: 10_000) + "<track><location>x.ogg</location></track>"
        let r = xspf(deep)
        #expect(r.entries.isEmpty)
        #expect(r.notes == ["1: elements nested more than 256 deep; the rest of the playlist is not read."])
        for cut in ["<track><location>x.ogg", "<track><location><![CDATA[x.ogg", "<track><!-- x", "<track><location a=\"x", "<!DOCTYPE [", "<"] {
            _ = xspf(cut)
        }
        #expect(xspf("<track><location>x.ogg").entries == ["x.ogg"])
        #expect(xspf([0xFF, 0xFE, 0x3C, 0x00]).entries.isEmpty)
    }

    @Test func xspfLocationsArePercentDecodedAgainstALocalDirectory() {
        #expect(PlaylistReader.resolve("a%20b.ogg?x#y", against: .directory("/m/"), uriReference: true) == .path("/m/a b.ogg"))
        #expect(PlaylistReader.resolve("a%20b.ogg", against: .directory("/m/")) == .path("/m/a%20b.ogg"))
        #expect(PlaylistReader.resolve("bad%zz.ogg", against: .directory("/m/"), uriReference: true)
            == .unsupported("a malformed %-escape in the location; fix the entry."))
    }

    /// The inputs the pls and xspf fuzz targets once crashed on (Tests/Fuzz/regressions): every URL
    /// an entry resolves to parses back to itself (it did not: a host with a colon in it).
    @Test func savedFuzzCrashesNoLongerBreakTheRoundTrip() throws {
        let directory = Paths.packageRoot + "/Tests/Fuzz/regressions"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("pls-") || $0.hasPrefix("xspf-") }
        #expect(names.count >= 2)
        let base = try WebAddress(parsing: "http://user:secret@radio.example/lists/a.pls")
        for name in names {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            let format: PlaylistReader.Format = name.hasPrefix("pls-") ? .pls : .xspf
            for entry in format.read(bytes).entries {
                if case .url(let address) = PlaylistReader.resolve(entry.text, against: .address(base), uriReference: format.entriesAreURIs) {
                    #expect(WebAddress(address.text)?.text == address.text, "\(name): \(entry.text)")
                }
            }
        }
    }
}
