import Foundation
import MotetTestSupport
import Testing

/// Ogg Opus over HTTP: served as `audio/opus` or `audio/ogg; codecs=opus` (or as anything: the
/// first packet decides), a file in ranges or a live chained station, bit-exact.
@Suite struct OpusNetworkTests {
    func served(_ run: MotetRun) throws -> (FaultyHTTPServer, String) {
        let dir = run.path("www")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (i, title) in ["First Song", "Second Song"].enumerated() {
            try Fixtures.opus(
                dir + "/\(i).opus", seconds: 0.7 + 0.4 * Double(i), synth: ["pinknoise"], tags: Fixtures.Tags(title: title, artists: ["Band"]),
                serial: 40 + i)
        }
        return (try FaultyHTTPServer(directory: dir), dir)
    }

    @Test(arguments: ["0.opus?type=audio/opus", "0.opus?type=audio/ogg;codecs=opus&noranges=1", "0.opus?type=application/octet-stream"])
    func aServedOpusFileIsBitExact(_ path: String) throws {
        let run = try MotetRun()
        let (server, dir) = try served(run)
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", server.url(path)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: First Song (ok, completed)"), "\(r.stdout)")
        #expect(try wavData(out).data == Fixtures.opusReferenceDecode(dir + "/0.opus").bytes)
    }

    /// A station chaining songs: each link is its own track with its tags, with no damage said
    /// between them.
    @Test func aLiveOpusStationFollowsSongChanges() throws {
        let run = try MotetRun()
        let (server, _) = try served(run)
        let url = server.url("live?files=0.opus,1.opus&name=Opus%20FM")
        let out = run.path("out.txt"), err = run.path("err.txt")
        let p = try SpawnedProcess(
            [Paths.motet, "--output", "null", "--untimed", "--no-config", "--status", "events", url], environment: run.environment,
            stdout: out, stderr: err)
        defer { p.stop() }
        let text = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        #expect(try Shell.waitUntil(timeout: 30) { text().contains("Playing: Second Song") }, "\(text())")
        p.stop()
        let lines = text().split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Playing: First Song") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Finished: First Song") }, "\(lines)")
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(!errors.contains("corrupt") && !errors.contains("skipped"), "\(errors)")
    }

    /// A real station: icecast2 sending songs that ffmpeg's libopus encoded, chained. Motet plays
    /// it, follows its song changes (each link a track with its own tags, in the station's order,
    /// none said to be damaged), and when the server dies and comes back, reconnects and plays on.
    @Test func anIcecastOpusStationFollowsSongChangesAndReconnects() throws {
        let songs = [IcecastRig.Song(title: "Opus One", artist: "Band", seconds: 2), IcecastRig.Song(title: "Opus Two", artist: "Other Band", seconds: 2)]
        let station = try IcecastRig(songs: songs, opus: true)
        defer { station.stop() }
        let run = try MotetRun()
        let out = run.path("out.txt"), err = run.path("err.txt")
        let p = try SpawnedProcess(
            [Paths.motet, "--output", "null", "--no-config", "--status", "events", station.url], environment: run.environment,
            stdout: out, stderr: err)
        defer { p.stop() }
        let text = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        let errors = { (try? String(contentsOfFile: err, encoding: .utf8)) ?? "" }
        // Three songs in a row, each after the other.
        let titles = { text().split(separator: "\n").filter { $0.hasPrefix("Playing: ") }.map { String($0.dropFirst(9)) } }
        let one = "Opus One — Band — Radio Fixtures", two = "Opus Two — Other Band — Radio Fixtures"
        #expect(try Shell.waitUntil(timeout: 30) { titles().count >= 3 }, "\(text()) \(errors())")
        let seen = titles().prefix(3).map { $0.hasPrefix(one) ? 1 : $0.hasPrefix(two) ? 2 : 0 }
        #expect(seen == [1, 2, 1] || seen == [2, 1, 2], "\(titles())")
        #expect(text().contains("Finished: Opus One") && text().contains("Finished: Opus Two"), "\(text())")
        #expect(!errors().contains("corrupt") && !errors().contains("damaged"), "\(errors())")
        station.stopServer()
        #expect(try Shell.waitUntil(timeout: 30) { errors().contains("the stream was lost") }, "\(errors())")
        try station.startServer()
        #expect(
            try Shell.waitUntil(timeout: 30) { station.isOnAir },
            "\(station.log("error.log")) \((try? String(contentsOfFile: station.directory + "/source.stderr", encoding: .utf8)) ?? "")")
        #expect(try Shell.waitUntil(timeout: 40) { errors().contains("the stream is back; playing on") }, "\(errors())")
        #expect(p.isRunning, "\(errors())")
        #expect(!errors().contains("corrupt") && !errors().contains("Motet plays"), "\(errors())")
    }
}
