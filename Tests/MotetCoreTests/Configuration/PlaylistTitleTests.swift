import Testing

@testable import MotetConfiguration

/// The title a playlist gives an entry (PLS `TitleN=`, M3U `#EXTINF:…,Title`, XSPF `<title>`):
/// what a stream without a TITLE tag is called.
@Suite struct PlaylistTitleTests {
    private func titles(_ format: PlaylistReader.Format, _ text: String) -> [String?] {
        format.read(Array(text.utf8)).entries.map(\.title)
    }

    @Test func plsTitlesNameTheirNumberWhereverTheyStand() {
        let text = "[playlist]\nTitle2=Second Station\nFile1=a.ogg\nTitle1= First Station \nFile2=b.ogg\nFile2=c.ogg\nFile3=d.ogg\nTitle3=\nTitle03=Third\n"
        #expect(titles(.pls, text) == ["First Station", "Second Station", nil, "Third"])
    }

    @Test func m3uExtinfNamesTheNextEntryOnly() {
        let text = "#EXTM3U\n#EXTINF:-1 tvg-name=\"A, B\" group=\"x\",Jazz, Live\nhttp://h/jazz\nplain.ogg\n#EXTINF:123\nno-title.ogg\n#EXTINF:5,\nempty.ogg\n"
        #expect(titles(.m3u, text) == ["Jazz, Live", nil, nil, nil])
    }

    @Test func xspfTitlesBelongToTheirTrackBeforeOrAfterTheLocation() {
        let text = """
            <playlist><title>The list itself</title><trackList>
            <track><title>Before &amp; After</title><location>a.ogg</location></track>
            <track><location>b.ogg</location><annotation>x</annotation><title><![CDATA[Late]]></title></track>
            <track><location>c.ogg</location></track>
            <track><title>No location</title></track>
            </trackList></playlist>
            """
        #expect(titles(.xspf, text) == ["Before & After", "Late", nil])
    }

    @Test func anEntryThatIsOneTrackIsCalledWhatTheListCallsIt() {
        let web = RemotePlaylistTests.Web()
        web.pages["http://h/stations.pls"] = (nil, nil, "[playlist]\nFile1=live.m3u\nTitle1=Outer\nFile2=two.m3u\nTitle2=Not one track\n")
        web.pages["http://h/live.m3u"] = (nil, nil, "http://h/stream\n")
        web.pages["http://h/two.m3u"] = (nil, nil, "#EXTINF:-1,Inner\nhttp://h/x\nhttp://h/y\n")
        let result = InputExpander.expandWithTitles(["http://h/stations.pls"], standardInput: { [] }, fetch: web.fetch)
        #expect(result.files == ["http://h/stream", "http://h/x", "http://h/y"])
        #expect(result.titles == ["Outer", "Inner", nil])
    }
}
