import Foundation
import MotetTestSupport
import Testing

/// A live station (`FaultyHTTPServer`'s `/live`: icy headers, no length, a chained stream): each
/// song is a track, and a dropped connection is retried; when the station resumes the same song
/// (same tags, a new link) it stays the same track.
@Suite struct NetworkLiveTests {
    @Test func aReconnectionThatResumesTheSameSongStaysOneTrackAndTheNextSongIsANewOne() throws {
        let run = try MotetRun()
        let dir = run.path("www")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Two encodings of the same song (new serial numbers, same tags), then another song.
        try Fixtures.oggVorbis(dir + "/same1.ogg", seconds: 8, synth: ["pinknoise"], tags: .init(title: "Same Song", artists: ["Band"]), serial: 21)
        try Fixtures.oggVorbis(dir + "/same2.ogg", seconds: 8, synth: ["pinknoise"], tags: .init(title: "Same Song", artists: ["Band"]), serial: 22)
        try Fixtures.oggVorbis(dir + "/other.ogg", seconds: 8, synth: ["pinknoise"], tags: .init(title: "Other Song", artists: ["Band"]), serial: 23)
        let size = try FileManager.default.attributesOfItem(atPath: dir + "/same1.ogg")[.size] as? Int ?? 0
        let server = try FaultyHTTPServer(directory: dir)
        // Each connection breaks halfway through its first song and the next one starts at the
        // next file: same1 (half), same2 (half), other…
        let url = server.url("live?files=same1.ogg,same2.ogg,other.ogg&dropafter=\(size / 2)&genre=Test")
        let out = run.path("out.txt"), err = run.path("err.txt")
        let p = try SpawnedProcess(
            [Paths.motet, "--output", "null", "--untimed", "--no-config", "--status", "events", url], environment: run.environment,
            stdout: out, stderr: err)
        defer { p.stop() }
        let text = { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        #expect(try Shell.waitUntil(timeout: 60) { text().contains("Playing: Other Song") }, "\(text())")
        p.stop()
        let lines = text().split(separator: "\n").map(String.init)
        let untilOther = lines.prefix { !$0.hasPrefix("Playing: Other Song") }
        #expect(untilOther.filter { $0.hasPrefix("Playing: Same Song") }.count == 1, "\(lines)")
        #expect(untilOther.filter { $0.hasPrefix("Finished: Same Song") }.count == 1, "\(lines)")
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(errors.contains("motet: \(url): the stream was lost (the server closed the connection); reconnecting for up to 60 s"), "\(errors)")
        #expect(errors.contains("motet: \(url): the stream is back; playing on"), "\(errors)")
        #expect(!errors.contains("corrupt"), "a reconnection is no damage: \(errors)")
        // Live: never a Range request.
        #expect(server.requests().allSatisfy { $0.range.isEmpty }, "\(server.requests())")
    }

    @Test func eachSongOfAStationCountsFromItsOwnStartWithoutADuration() throws {
        let run = try MotetRun()
        let dir = run.path("www")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Fixtures.oggVorbis(dir + "/one.ogg", seconds: 4, tags: .init(title: "First Song", artists: ["Band"]), serial: 31)
        try Fixtures.oggVorbis(dir + "/two.ogg", seconds: 30, tags: .init(title: "Second Song", artists: ["Band"]), serial: 32)
        let server = try FaultyHTTPServer(directory: dir)
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", server.url("live?files=one.ogg,two.ogg")], environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Second Song", timeout: 30), "\(term.screen())")
        Thread.sleep(forTimeInterval: 1.5)
        let line = term.rows().last { $0.contains("Second Song") && !$0.hasPrefix("Playing:") } ?? ""
        // 4 s of the first song are behind: the second counts from 0:00, and a live song has no length.
        #expect(line.contains("0:01") || line.contains("0:02") || line.contains("0:03"), "\(line)")
        #expect(!line.contains(" / "), "\(line)")
    }
}
