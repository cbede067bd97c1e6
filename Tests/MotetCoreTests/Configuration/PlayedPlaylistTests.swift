import MotetConfiguration
import MotetEvents
import Testing

/// Entries read when they are played (`InputExpander.expandPlayed`): the inputs' reading, limits
/// and lines, counted along the chain of playlists an entry came from.
@Suite struct PlayedPlaylistTests {
    typealias Web = RemotePlaylistTests.Web

    private func read(
        _ url: String, _ playlist: PlaylistContentType?, origin: [String] = [], budget: inout InputExpander.FetchBudget, _ web: Web
    ) -> InputExpander.PlayedEntry {
        InputExpander.expandPlayed(url, playlist: playlist, origin: origin, budget: &budget, fetch: web.fetch)
    }

    @Test func aStreamServedAsAPlaylistIsReadInThatFormatAndItsEntriesKnowWhereTheyCameFrom() {
        let web = Web()
        // The station now sends text/plain: the type seen when it was played still says "PLS".
        web.pages["http://me:pw@h/tune-in/listen"] = ("http://me:pw@cdn/lists/listen", "text/plain", "[playlist]\nFile1=a.ogg\nFile2=../b.m3u\n")
        web.pages["http://me:pw@cdn/b.m3u"] = (nil, nil, "c.ogg\n")
        var budget = InputExpander.FetchBudget()
        let result = read("http://me:pw@h/tune-in/listen", .pls, budget: &budget, web)
        #expect(result.entries.map(\.path) == ["http://me:pw@cdn/lists/a.ogg", "http://me:pw@cdn/c.ogg"])
        #expect(result.entries.map(\.origin) == [["http://h/tune-in/listen", "http://cdn/lists/listen"], ["http://h/tune-in/listen", "http://cdn/lists/listen", "http://cdn/b.m3u"]])
        #expect(result.warnings.isEmpty)
    }

    @Test func aPlaylistReachedAgainThroughItsEntriesIsNotFollowed() {
        let web = Web()
        var budget = InputExpander.FetchBudget()
        let result = read("http://me:pw@h/listen", .m3u, origin: ["http://h/listen"], budget: &budget, web)
        #expect(result.entries.isEmpty && web.fetched.isEmpty)
        #expect(result.warnings == ["motet: skipping 'http://h/listen': this playlist includes itself; not following it again."])
    }

    @Test func nestingAndFetchesCountForTheWholeChainAndRun() {
        let web = Web()
        web.pages["http://h/deep"] = (nil, "audio/x-mpegurl", "a.ogg\n")
        var budget = InputExpander.FetchBudget()
        let deep = read("http://h/deep", .m3u, origin: (1...64).map { "http://h/\($0)" }, budget: &budget, web)
        #expect(deep.entries.isEmpty && web.fetched.isEmpty)
        #expect(deep.warnings == ["motet: skipping 'http://h/deep': playlists nested too deeply (more than 64 levels)."])

        for _ in 0..<256 { _ = read("http://h/deep", .m3u, budget: &budget, web) }
        #expect(web.fetched.count == 256)
        let over = read("http://h/deep", .m3u, budget: &budget, web)
        #expect(over.entries.isEmpty && web.fetched.count == 256)
        #expect(over.warnings.count == 1 && over.warnings[0].contains("more than 256 remote playlists in one run"), "\(over.warnings)")
        #expect(read("http://h/deep", .m3u, budget: &budget, web).warnings.isEmpty)  // said once
    }

    @Test func aURLGivenWhilePlayingIsReadAsAnInputIs() {
        let web = Web()
        web.pages["http://h/list.pls"] = (nil, "text/plain", "[playlist]\nFile1=a.ogg\n")
        var budget = InputExpander.FetchBudget()
        #expect(read("http://h/list.pls", nil, budget: &budget, web).entries.map(\.path) == ["http://h/a.ogg"])
        // Not a playlist's name: a track, not fetched.
        #expect(read("http://h/live", nil, budget: &budget, web).entries.map(\.path) == ["http://h/live"])
        #expect(web.fetched == ["http://h/list.pls"])
        #expect(InputExpander.namesPlaylist("https://h/a/B.M3U8?x=1") && !InputExpander.namesPlaylist("http://h/live"))
        #expect(InputExpander.namesPlaylist("/music/list.XSPF") && !InputExpander.namesPlaylist("/music/song.ogg"))
    }
}
