import Foundation
import MotetTestSupport
import Testing

/// Remote playlists from a real HTTP server on 127.0.0.1 (`FaultyHTTPServer`): fetched through
/// libcurl, expanded, their relative entries resolved against the playlist's URL, and played.
@Suite struct RemotePlaylistPlaybackTests {
    /// Three short tracks with distinct titles: one and two served, three local only.
    private func station(_ run: MotetRun) throws -> (FaultyHTTPServer, local: String) {
        let dir = run.path("www")
        try FileManager.default.createDirectory(atPath: dir + "/lists", withIntermediateDirectories: true)
        try Fixtures.oggVorbis(dir + "/one.ogg", seconds: 0.5, tags: .init(title: "Served One"))
        try Fixtures.oggVorbis(dir + "/two.ogg", seconds: 0.5, synth: ["sine", "660"], tags: .init(title: "Served Two"))
        let local = run.path("three.ogg")
        try Fixtures.oggVorbis(local, seconds: 0.5, synth: ["sine", "880"], tags: .init(title: "Local Three"))
        // Entries out of order, CRLF, a relative URL, a file:// URL, a nested remote .m3u (whose
        // own relative entry starts at lists/), a dead entry and the playlist itself.
        try Data("""
            [playlist]\r
            NumberOfEntries=5\r
            File3=lists/more.m3u\r
            File1=one.ogg\r
            File2=file://\(local.replacingOccurrences(of: " ", with: "%20"))\r
            File4=missing.ogg\r
            File5=station.pls?type=audio/x-scpls\r
            Version=2\r

            """.utf8).write(to: URL(fileURLWithPath: dir + "/station.pls"))
        try Data("#EXTM3U\n../two.ogg\n".utf8).write(to: URL(fileURLWithPath: dir + "/lists/more.m3u"))
        return (try FaultyHTTPServer(directory: dir), local)
    }

    @Test func aRemotePlsPlaysItsEntriesInFileNumberOrder() throws {
        let run = try MotetRun()
        let (server, _) = try station(run)
        let playlist = server.url("station.pls?type=audio/x-scpls")
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", playlist])
        #expect(r.status == 0, "\(r.stderr)")
        let played = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Finished: ") }
        #expect(played == [
            "Finished: Served One (ok, completed)", "Finished: Local Three (ok, completed)", "Finished: Served Two (ok, completed)",
        ], "\(r.stdout)\n\(r.stderr)")
        let base = server.url("")
        #expect(r.stderr.contains("motet: \(playlist):7: skipping '\(playlist)': this playlist includes itself; not following it again."), "\(r.stderr)")
        // The dead entry is a stream that fails when played (a URL is not fetched twice to check it).
        #expect(r.stderr.contains("\(base)missing.ogg") && r.stderr.contains("404"), "\(r.stderr)")
        let requests = server.requests().map(\.path)
        #expect(requests.filter { $0.hasPrefix("/station.pls") }.count == 1, "\(requests)")
        #expect(requests.contains("/lists/more.m3u") && requests.contains("/two.ogg") && requests.contains("/one.ogg"), "\(requests)")
        #expect(server.requests().allSatisfy { $0.userAgent.hasPrefix("Motet/") })
    }

    @Test func anUnreachablePlaylistIsOneLineAndTheOtherInputsPlay() throws {
        let run = try MotetRun()
        let (server, local) = try station(run)
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", server.url("gone.xspf"), local])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("motet: skipping '\(server.url("gone.xspf"))': the server answered 404"), "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Local Three (ok, completed)"), "\(r.stdout)")
    }
}
