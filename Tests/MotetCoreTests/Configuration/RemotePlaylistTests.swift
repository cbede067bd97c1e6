import Foundation
import MotetConfiguration
import MotetTestSupport
import Testing

/// Remote playlists through a fetch closure standing in for the network (the real one, libcurl
/// against a local HTTP server, is in IntegrationTests/RemotePlaylistPlaybackTests).
@Suite struct RemotePlaylistTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A fake web: URL → (final URL, content type, body); records what was fetched and the limit asked.
    final class Web: @unchecked Sendable {
        var pages: [String: (final: String?, type: String?, body: String)] = [:]
        var fetched: [String] = []
        var limits: [Int] = []

        func fetch(_ url: String, _ limit: Int) -> Result<InputExpander.Document, any Error> {
            fetched.append(url)
            limits.append(limit)
            guard let page = pages[url] else { return .failure(Failure(description: "the server answered 404 Not Found — check the address")) }
            guard page.body.utf8.count <= limit else { return .failure(Failure(description: "larger than \(limit) bytes")) }
            return .success((page.final ?? url, page.type, Array(page.body.utf8)))
        }
    }

    private func expand(_ inputs: [String], _ web: Web) -> (files: [String], warnings: [String]) {
        InputExpander.expand(inputs, standardInput: { [] }, fetch: web.fetch)
    }

    @Test func aRemotePlsIsFetchedAndItsEntriesResolveAgainstTheFinalURL() {
        let web = Web()
        web.pages["http://radio.example/tune-in/station.pls"] = (
            "https://cdn.example/lists/v2/station.pls", "audio/x-scpls",
            "[playlist]\r\nFile2=../../streams/low.ogg\r\nFile1=hi.ogg\r\nFile3=//mirror.example/backup.ogg\r\nFile4=/root.ogg?x=1\r\nNumberOfEntries=4\r\n"
        )
        let result = expand(["http://radio.example/tune-in/station.pls"], web)
        #expect(result.files == [
            "https://cdn.example/lists/v2/hi.ogg", "https://cdn.example/streams/low.ogg", "https://mirror.example/backup.ogg",
            "https://cdn.example/root.ogg?x=1",
        ])
        #expect(result.warnings.isEmpty)
        #expect(web.fetched == ["http://radio.example/tune-in/station.pls"])
        #expect(web.limits == [1 << 20])
    }

    @Test func urlsWithoutAPlaylistNameAreNeverFetched() {
        let web = Web()
        let result = expand(["http://radio.example/live", "https://radio.example/song.ogg?m3u=1", "http://radio.example/dir/"], web)
        #expect(result.files == ["http://radio.example/live", "https://radio.example/song.ogg?m3u=1", "http://radio.example/dir/"])
        #expect(web.fetched.isEmpty)
    }

    @Test func theContentTypeChoosesTheFormatOverTheName() {
        let web = Web()
        web.pages["http://h/list.m3u"] = (nil, "application/xspf+xml; charset=utf-8", "<trackList><track><location>a%20b.ogg</location></track></trackList>")
        web.pages["http://h/other.xspf"] = (nil, "text/plain", "<trackList><track><location>x.ogg</location></track></trackList>")
        web.pages["http://h/page.pls"] = (nil, "text/html; charset=utf-8", "<html>File1=no.ogg</html>")
        let result = expand(["http://h/list.m3u", "http://h/other.xspf", "http://h/page.pls"], web)
        #expect(result.files == ["http://h/a%20b.ogg", "http://h/x.ogg"])
        #expect(result.warnings == ["motet: skipping 'http://h/page.pls': the server sent a web page (text/html; charset=utf-8), not a playlist; check the URL."])
    }

    @Test func remotePlaylistsNestAndCyclesAreCaughtWhateverTheCredentials() {
        let web = Web()
        web.pages["http://me:pw@h/a.m3u"] = (nil, nil, "one.ogg\nsub/b.m3u\nthree.ogg\n")
        web.pages["http://me:pw@h/sub/b.m3u"] = (nil, nil, "two.ogg\nhttp://h/a.m3u\n../a.m3u\nhttp://h/sub/b.m3u?again\n")
        web.pages["http://h/sub/b.m3u?again"] = (nil, nil, "http://h/sub/b.m3u\n")
        let result = expand(["http://me:pw@h/a.m3u"], web)
        #expect(result.files == ["http://me:pw@h/one.ogg", "http://me:pw@h/sub/two.ogg", "http://me:pw@h/three.ogg"])
        #expect(result.warnings == [
            "motet: http://h/sub/b.m3u:2: skipping 'http://h/a.m3u': this playlist includes itself; not following it again.",
            "motet: http://h/sub/b.m3u:3: skipping 'http://h/a.m3u': this playlist includes itself; not following it again.",
            "motet: http://h/sub/b.m3u?again:1: skipping 'http://h/sub/b.m3u': this playlist includes itself; not following it again.",
        ])
        #expect(!result.warnings.joined().contains("pw"))
    }

    @Test func aRedirectBackToAnOpenPlaylistIsACycle() {
        let web = Web()
        web.pages["http://h/a.pls"] = (nil, nil, "File1=http://h/short.pls\nFile2=ok.ogg\n")
        web.pages["http://h/short.pls"] = ("http://h/a.pls", nil, "File1=never.ogg\n")
        let result = expand(["http://h/a.pls"], web)
        #expect(result.files == ["http://h/ok.ogg"])
        #expect(result.warnings == [
            "motet: http://h/a.pls:1: skipping 'http://h/short.pls': this playlist includes itself (through http://h/a.pls); not following it again."
        ])
    }

    @Test func badEntriesAndFailedFetchesWarnAndTheRestPlays() throws {
        let root = try Paths.temporaryDirectory("motet-remote")
        _ = FileManager.default.createFile(atPath: root + "/local.ogg", contents: Data("x".utf8))
        let web = Web()
        web.pages["http://h/list.pls"] = (
            nil, nil, "[playlist]\nFile1=file://\(root)/local.ogg\nFile2=mms://h/x\nFile3=http://h/gone.m3u\nFile4=\nFile5=ok.ogg\nFile6=http://h:99999/x.ogg\n"
        )
        web.pages["http://h/huge.m3u"] = (nil, nil, String(repeating: "x.ogg\n", count: 200_000))
        let result = expand(["http://h/list.pls", "http://h/huge.m3u"], web)
        #expect(result.files == [root + "/local.ogg", "http://h/ok.ogg"])
        #expect(result.warnings == [
            "motet: http://h/list.pls:3: skipping 'mms://h/x': Motet plays http://, https:// and file:// URLs, not mms:; use another program for it or remove it.",
            "motet: http://h/list.pls:4: skipping 'http://h/gone.m3u': the server answered 404 Not Found — check the address.",
            "motet: http://h/list.pls:5: File4= names nothing; remove the line or give it a file or URL.",
            "motet: http://h/list.pls:7: skipping 'http://h:99999/x.ogg': the port '99999' is not a number from 1 to 65535; fix the URL.",
            "motet: skipping 'http://h/huge.m3u': larger than 1048576 bytes.",
        ])
    }

    @Test func playlistsListingPlaylistsManyTimesStopAtTheFetchLimitWithOneLine() {
        let web = Web()
        web.pages["http://h/a.m3u"] = (nil, nil, String(repeating: "b.m3u\n", count: 20))
        web.pages["http://h/b.m3u"] = (nil, nil, String(repeating: "c.m3u\n", count: 20))
        web.pages["http://h/c.m3u"] = (nil, nil, "x.ogg\n")
        let result = expand(["http://h/a.m3u"], web)
        #expect(web.fetched.count == 256)
        // a, then 12 times b and its 20 c, then a 13th b and 2 of its c: 256 fetches, 12 × 20 + 2 tracks.
        #expect(result.files.count == 242)
        #expect(result.warnings == [
            "motet: http://h/b.m3u:3: skipping 'http://h/c.m3u': more than 256 remote playlists in one run; not fetching this one or any other (give fewer playlists)."
        ])
    }

    @Test func anHLSPlaylistIsOneLineNotAListOfSegments() {
        let web = Web()
        web.pages["https://h/live/radio.m3u8"] = (nil, "application/vnd.apple.mpegurl", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg1.aac\nseg2.aac\n")
        let result = expand(["https://h/live/radio.m3u8"], web)
        #expect(result.files.isEmpty)
        #expect(result.warnings == [
            "motet: https://h/live/radio.m3u8:2: this is an HLS playlist (#EXT-X-VERSION), the pieces of one stream; Motet does not play HLS: pick the station's Ogg Vorbis or Opus stream."
        ])
    }

    @Test func aPlaylistNameServingAudioIsATrack() {
        let web = Web()
        web.pages["http://h/a.m3u"] = (nil, "audio/ogg", "OggS\u{0}\u{2}binary")
        web.pages["http://h/b.pls"] = (nil, "application/octet-stream", "OggS\u{0}\u{2}binary")
        web.pages["http://h/c.pls"] = (nil, "audio/mpeg", "ID3")
        web.pages["http://h/d.m3u"] = (nil, nil, "\u{FF}\u{FB}\u{90}\u{0}")
        // Text labelled audio is still a playlist.
        web.pages["http://h/e.m3u"] = (nil, "audio/ogg", "e.ogg\n")
        let result = expand(["http://h/a.m3u", "http://h/b.pls", "http://h/c.pls", "http://h/d.m3u", "http://h/e.m3u"], web)
        #expect(result.files == ["http://h/a.m3u", "http://h/b.pls", "http://h/c.pls", "http://h/d.m3u", "http://h/e.ogg"])
        #expect(result.warnings.isEmpty)
    }

    @Test func aRemotePlaylistNamesLocalFilesButNotDirectoriesOrDevices() throws {
        let root = try Paths.temporaryDirectory("motet-remote")
        try FileManager.default.createDirectory(atPath: root + "/music", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/music/a.ogg", contents: Data("x".utf8))
        let web = Web()
        web.pages["http://h/list.m3u"] = (nil, nil, "file://\(root)/music/a.ogg\nfile://\(root)/music\nfile:///dev/zero\nfile:///\n")
        let result = expand(["http://h/list.m3u"], web)
        #expect(result.files == [root + "/music/a.ogg"])
        let refusal = "a remote playlist may name local files but not directories or devices; play it yourself if you trust it."
        #expect(result.warnings == [
            "motet: http://h/list.m3u:2: skipping '\(root)/music': " + refusal,
            "motet: http://h/list.m3u:3: skipping '/dev/zero': " + refusal,
            "motet: http://h/list.m3u:4: skipping '/': " + refusal,
        ])
        // Given by the user, the same directory is searched.
        #expect(InputExpander.expand([root + "/music"]).files == [root + "/music/a.ogg"])
    }

    @Test func withoutAFetchRemotePlaylistsAreReportedAndStreamsKept() {
        let result = InputExpander.expand(["http://h/list.pls", "http://h/stream"], standardInput: { [] })
        #expect(result.files == ["http://h/stream"])
        #expect(result.warnings == ["motet: skipping 'http://h/list.pls': this build cannot fetch remote playlists; download it and play the file."])
    }

    @Test func localPlsAndXspfPlaylistsAreReadRelativeToTheirDirectory() throws {
        let root = try Paths.temporaryDirectory("motet-remote")
        for name in ["a.ogg", "b c.ogg", "sub/d.ogg"] {
            try FileManager.default.createDirectory(atPath: root + "/" + (name.contains("/") ? "sub" : ""), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: root + "/" + name, contents: Data("x".utf8))
        }
        try Data("[playlist]\r\nFile2=sub/d.ogg\r\nFile1=a.ogg\r\nFile3=http://radio.example/x.m3u8x\r\nFile4=list.xspf\r\n".utf8)
            .write(to: URL(fileURLWithPath: root + "/list.pls"))
        try Data("<playlist><trackList><track><location>b%20c.ogg</location></track><track><location>http://h/s.ogg</location></track><track><location>list.pls</location></track></trackList></playlist>".utf8)
            .write(to: URL(fileURLWithPath: root + "/list.xspf"))
        let result = InputExpander.expand([root + "/list.pls"], standardInput: { [] })
        #expect(result.files == [root + "/a.ogg", root + "/sub/d.ogg", "http://radio.example/x.m3u8x", root + "/b c.ogg", "http://h/s.ogg"])
        #expect(result.warnings == ["motet: \(root)/list.xspf:1: skipping '\(root)/list.pls': this playlist includes itself; not following it again."])
    }
}
