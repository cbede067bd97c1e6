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
        // The dead entry is a stream that fails when played (a URL is not fetched twice to check it);
        // its line names the playlist that lists it too.
        #expect(r.stderr.contains("motet: \(base)missing.ogg: the server answered 404 Not Found — check the address (listed in \(playlist))"),
                "\(r.stderr)")
        let requests = server.requests().map(\.path)
        #expect(requests.filter { $0.hasPrefix("/station.pls") }.count == 1, "\(requests)")
        #expect(requests.contains("/lists/more.m3u") && requests.contains("/two.ogg") && requests.contains("/one.ogg"), "\(requests)")
        #expect(server.requests().allSatisfy { $0.userAgent.hasPrefix("Motet/") })
    }

    @Test func aDeadEntryOfALocalPlaylistNamesTheEntryAndThePlaylist() throws {
        let run = try MotetRun()
        let (server, _) = try station(run)
        let list = run.path("stations.pls")
        let dead = "http://127.0.0.1:1/dead.ogg"
        try Data("[playlist]\nFile1=\(dead)\nTitle1=Gone Radio\nFile2=\(server.url("one.ogg"))\nNumberOfEntries=2\n".utf8)
            .write(to: URL(fileURLWithPath: list))
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", list])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(
            "motet: \(dead): cannot connect (connection refused) — check the address and port, or try again later (listed in \(list))"),
                "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Served One (ok, completed)"), "\(r.stdout)")
    }

    @Test func anUnreachablePlaylistIsOneLineAndTheOtherInputsPlay() throws {
        let run = try MotetRun()
        let (server, local) = try station(run)
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", server.url("gone.xspf"), local])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("motet: skipping '\(server.url("gone.xspf"))': the server answered 404"), "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Local Three (ok, completed)"), "\(r.stdout)")
    }

    /// Served under a name that says nothing (a station's "Listen" link), behind a redirect: the
    /// server's content type makes it a playlist when it is played. Its entries (relative to the
    /// URL after the redirect) take its place in the queue and play, then the next input.
    @Test func aPlaylistByItsContentTypeIsReadWhenPlayedAndItsEntriesPlayInOrder() throws {
        let run = try MotetRun()
        let (server, local) = try station(run)
        let dir = server.directory
        try Data("[playlist]\nFile1=one.ogg\nFile2=../two.ogg\nNumberOfEntries=2\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/lists/listen"))
        try FileManager.default.copyItem(atPath: dir + "/one.ogg", toPath: dir + "/lists/one.ogg")
        let listen = server.url("redirect?to=%2Flists%2Flisten%3Ftype%3Daudio%2Fx-scpls")
        let events = run.path("events.jsonl")
        let r = try run.run(
            ["--output", "null", "--untimed", "--no-config", "--status", "events", "--plugin", "json:path=\(run.path("state.json")),events=\(events)",
             listen, local])
        #expect(r.status == 0, "\(r.stderr)")
        let played = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Finished: ") }
        #expect(played == [
            "Finished: Served One (ok, completed)", "Finished: Served Two (ok, completed)", "Finished: Local Three (ok, completed)",
        ], "\(r.stdout)\n\(r.stderr)")
        #expect(!r.stderr.contains("playlist"), "\(r.stderr)")
        // The json delegate saw each entry as a track of its own, with its URL.
        var shown: [String] = []
        for event in try JSONDelegateFiles.events(events) where event["event"] as? String == "now-playing" {
            guard let current = event["current"] as? [String: Any], let title = current["title"] as? String else { continue }
            let entry = title + " " + (current["url"] as? String ?? "(file)")
            if shown.last != entry { shown.append(entry) }
        }
        #expect(shown == ["Served One \(server.url("lists/one.ogg"))", "Served Two \(server.url("two.ogg"))", "Local Three (file)"], "\(shown)")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events) == "")
    }

    /// A playlist by its content type whose entries all fail: one line each, as for any entry,
    /// and the next input plays. One that lists itself is not followed again.
    @Test func aPlaylistByTypeWhoseEntriesAllFailGivesOneLineEachAndTheNextInputPlays() throws {
        let run = try MotetRun()
        let (server, local) = try station(run)
        let dir = server.directory
        try Data("#EXTM3U\nmissing.ogg\nstatus/500\nfile:///nonexistent/gone.ogg\ndead?type=audio/x-mpegurl\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/dead"))
        let dead = server.url("dead?type=audio/x-mpegurl")
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", dead, local])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let expected = [
            "motet: \(server.url("missing.ogg")): the server answered 404",
            "motet: \(server.url("status/500")): the server answered 500",
            "motet: \(dead):4: skipping '/nonexistent/gone.ogg': ",
            // Listed by a name that says nothing, it is read when played: then it is known.
            "motet: skipping '\(dead)': this playlist includes itself; not following it again.",
        ]
        for line in expected {
            #expect(lines.filter { $0.hasPrefix(line) }.count == 1, "\(line)\n\(r.stderr)")
        }
        #expect(lines.count == expected.count, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").filter { $0.hasPrefix("Finished: ") } == ["Finished: Local Three (ok, completed)"], "\(r.stdout)")
    }

    /// A stream without a TITLE tag is called what its playlist calls it (PLS `TitleN=`), whether
    /// the playlist was read by its name before playing or by its content type when played.
    @Test func anUntaggedStreamIsCalledWhatItsPlaylistCallsIt() throws {
        let run = try MotetRun()
        let (server, _) = try station(run)
        let dir = server.directory
        try Fixtures.oggVorbis(dir + "/untagged.ogg", seconds: 0.5)
        try Data("[playlist]\nFile1=untagged.ogg\nTitle1=Jazz By Name\nFile2=one.ogg\nTitle2=Not The Tag\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/named.pls"))
        try Data("[playlist]\nFile1=untagged.ogg\nTitle1=Jazz By Type\n".utf8).write(to: URL(fileURLWithPath: dir + "/listen"))
        let r = try run.run(
            ["--output", "null", "--untimed", "--no-config", "--status", "events", server.url("named.pls"), server.url("listen?type=audio/x-scpls")])
        #expect(r.status == 0, "\(r.stderr)")
        let played = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Finished: ") }
        #expect(played == [
            "Finished: Jazz By Name (ok, completed)", "Finished: Served One (ok, completed)", "Finished: Jazz By Type (ok, completed)",
        ], "\(r.stdout)\n\(r.stderr)")
    }

    /// The playlist's fetch runs on the decoder thread: a quit while the server holds it back ends
    /// it at once, not at the network timeout (15 s).
    @Test func quitIsImmediateWhileAPlaylistIsBeingFetched() throws {
        let bound: Double = ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil ? 4 : 10
        let run = try MotetRun()
        let (server, _) = try station(run)
        try Data("[playlist]\nFile1=one.ogg\n".utf8).write(to: URL(fileURLWithPath: server.directory + "/held"))
        // The header says "playlist", then nothing comes.
        let held = server.url("held?type=audio/x-scpls&stall=0")
        let p = try SpawnedProcess([Paths.motet, "--output", "null", "--no-config", "--status", "quiet", held], environment: run.environment)
        #expect(try Shell.waitUntil(timeout: 10) { server.requests().filter { $0.path.hasPrefix("/held") }.count == 2 }, "\(server.requests())")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(p.isRunning)
        let took = p.secondsToQuit(timeout: 20)
        #expect(took.map { $0 < bound } == true, "quitting took \(took.map { "\($0) s" } ?? "over 20 s")")
    }
}
