import Foundation
import MotetTestSupport
import Testing

/// Bad servers and bad networks (`FaultyHTTPServer`): each gives one line naming the URL and what
/// to do, and playback goes on with the next entry; a stalled network shows stalled, gives up in
/// time, and never holds up skip or quit.
@Suite struct NetworkFaultTests {
    @Test func eachBadEntryGivesItsOneLineAndTheNextEntryPlays() throws {
        let run = try MotetRun()
        let (server, _) = try NetworkPlaybackTests.served(run, seconds: 1, title: "Good Song")
        let dir = server.directory
        try Fixtures.oggVorbis(dir + "/opus-like.ogg", seconds: 0.5)
        // A damaged Ogg Opus stream's first page: "OggS", then "OpusHead" at byte 28 of a header
        // whose segment table is empty.
        var opus = [UInt8]("OggS".utf8) + [UInt8](repeating: 0, count: 24) + [UInt8]("OpusHead".utf8)
        opus += [UInt8](repeating: 1, count: 200)
        try Data(opus).write(to: URL(fileURLWithPath: dir + "/opus.ogg"))
        // A web page and an MP3 start that the server calls audio/ogg (its default type).
        try Data("<!DOCTYPE html><html><body>Listen!</body></html>\n".utf8).write(to: URL(fileURLWithPath: dir + "/page.ogg"))
        try Data([UInt8]("ID3".utf8) + [4, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 200)).write(to: URL(fileURLWithPath: dir + "/mp3.ogg"))
        // A comment packet of 5 MiB: past the 4 MiB the headers may take.
        try Fixtures.oggVorbis(dir + "/huge-comment.ogg", seconds: 0.5)
        try Fixtures.addComments(dir + "/huge-comment.ogg", ["DESCRIPTION=" + String(repeating: "x", count: 5 << 20)])
        // The same in an Ogg Opus stream's OpusTags.
        try Fixtures.opus(dir + "/huge-comment.opus", seconds: 0.5)
        try Fixtures.replaceComments(dir + "/huge-comment.opus", [Array("DESCRIPTION=".utf8) + [UInt8](repeating: 0x78, count: 5 << 20)])
        let cases: [(String, String)] = [
            ("status/404", "the server answered 404 Not Found — check the address"),
            ("status/500", "the server answered 500 Internal Server Error — the server has a problem; try again later"),
            ("song.ogg?type=audio/mpeg", "this is an MP3 stream (audio/mpeg); Motet plays Ogg Vorbis"),
            ("song.ogg?type=audio/aacp", "this is an AAC stream (audio/aacp); Motet plays Ogg Vorbis"),
            ("opus.ogg", "this is a damaged Ogg Opus stream (audio/ogg); Motet plays Ogg Vorbis and Ogg Opus"),
            ("html", "this is a web page (text/html), not an audio stream"),
            ("page.ogg", "this is a web page (sent as audio/ogg), not an audio stream"),
            ("mp3.ogg", "this is an MP3 stream (sent as audio/ogg); Motet plays Ogg Vorbis"),
            ("loop", "too many redirects (a redirect loop)"),
            ("longheader", "the server's HTTP header is too long"),
            ("garbage", "not an Ogg stream (unknown data)"),
            ("huge-comment.ogg", "the stream's headers (tags, pictures) exceed 4 MiB"),
            ("huge-comment.opus", "the stream's headers (tags, pictures) exceed 4 MiB"),
        ]
        let refused = "http://127.0.0.1:1/radio.ogg"
        let urls = cases.map { server.url($0.0) } + [refused]
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events"] + urls + [server.url("song.ogg")])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        for (path, text) in cases {
            let url = server.url(path)
            #expect(lines.filter { $0.hasPrefix("motet: \(url): ") }.count == 1, "\(url): \(lines)")
            #expect(lines.contains { $0.hasPrefix("motet: \(url): \(text)") }, "\(url): \(lines)")
        }
        #expect(lines.contains("motet: \(refused): cannot connect (connection refused) — check the address and port, or try again later"), "\(lines)")
        #expect(r.stdout.contains("Finished: Good Song (ok, completed)"), "\(r.stdout)")
    }

    @Test func anUntrustedCertificateIsOneLineAndTheNextEntryPlays() throws {
        let run = try MotetRun()
        let (plain, _) = try NetworkPlaybackTests.served(run, seconds: 1, title: "Plain")
        let secure = try FaultyHTTPServer(directory: plain.directory, tls: true)
        let url = secure.url("song.ogg")
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", url, plain.url("song.ogg")])
        #expect(r.stderr.contains("motet: \(url): the secure connection failed ("), "\(r.stderr)")
        #expect(r.stderr.contains("certificate"), "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Plain (ok, completed)"), "\(r.stdout)")
    }

    @Test func anUnknownHostIsOneLine() throws {
        let run = try MotetRun()
        let url = "http://no-such-station.invalid/stream.ogg"
        let r = try run.run(["--output", "null", "--untimed", "--no-config", url], timeout: 60)
        #expect(r.stderr.contains("motet: \(url): the host no-such-station.invalid was not found (DNS)"), "\(r.stderr)")
    }

    @Test func aTrickleShowsStalledThenGivesUpAndTheNextEntryPlays() throws {
        let run = try MotetRun()
        let (server, local) = try NetworkPlaybackTests.served(run, seconds: 20, title: "Trickling")
        try Fixtures.oggVorbis(server.directory + "/next.ogg", seconds: 1, tags: .init(title: "Next One"))
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int ?? 0
        let url = server.url("song.ogg?trickle=\(size / 5)")
        let started = Stopwatch()
        let r = try run.run(
            ["--output", "null", "--no-config", "--status", "events", "--network-timeout", "2", "--reconnect-for", "3", url, server.url("next.ogg")],
            timeout: 90)
        // The next entry played, but the stream was given up on: EX_UNAVAILABLE.
        #expect(r.status == 69, "\(r.stderr)")
        let out = r.stdout
        let stalled = try #require(out.range(of: "State: stalled"), "\(out)")
        let next = try #require(out.range(of: "Playing: Next One"), "\(out)")
        #expect(stalled.lowerBound < next.lowerBound)
        #expect(out.contains("Finished: Next One (ok, completed)"), "\(out)")
        #expect(r.stderr.contains("motet: \(url): the stream was lost (nothing arrived for too long); reconnecting for up to 3 s"), "\(r.stderr)")
        #expect(r.stderr.contains("motet: \(url): the stream was lost (nothing arrived for too long) and did not come back within 3 s"), "\(r.stderr)")
        #expect(started.seconds < 60)
    }

    @Test func headersThenSilenceIsSaidAsSuchAndNotRetried() throws {
        let run = try MotetRun()
        let (server, _) = try NetworkPlaybackTests.served(run, seconds: 1, title: "After Silence")
        // The header, then nothing at all (the connection stays open).
        let silent = server.url("song.ogg?stall=0")
        let started = Stopwatch()
        let r = try run.run(
            ["--output", "null", "--no-config", "--status", "events", "--network-timeout", "2", "--reconnect-for", "60", silent, server.url("song.ogg")],
            timeout: 60)
        let took = started.seconds
        #expect(r.stderr.contains("motet: \(silent): the server answered but sent no audio in 2 s — "), "\(r.stderr)")
        // Nothing ever came, so nothing was lost: no reconnection, no "lost" line.
        #expect(!r.stderr.contains("lost"), "\(r.stderr)")
        #expect(server.requests().filter { $0.path.hasPrefix("/song.ogg?stall=0") }.count == 1, "\(server.requests())")
        #expect(r.stdout.contains("Finished: After Silence (ok, completed)"), "\(r.stdout)")
        #expect(took < 20, "took \(took) s")
    }

    @Test func aSlowConnectionSaysHowFastItIsAgainstWhatTheStreamNeeds() throws {
        let run = try MotetRun()
        let (server, _) = try NetworkPlaybackTests.served(run, seconds: 30, title: "Slow")
        // 1 KB/s, without a length or ranges: a stream that comes slower than it plays.
        let url = server.url("song.ogg?rate=1000&noranges=1&nolength=1")
        let p = try SpawnedProcess(
            [Paths.motet, "--output", "null", "--no-config", "--status", "events", "--prebuffer", "0.5", url],
            environment: run.environment, stdout: run.path("out.txt"), stderr: run.path("err.txt"))
        defer { p.stop() }
        var lines: [String] = []
        var stateWhenSaid = ""
        let said = try Shell.waitUntil(timeout: 60) {
            lines = ((try? String(contentsOfFile: run.path("err.txt"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            let states = ((try? String(contentsOfFile: run.path("out.txt"), encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("State: ") }
            stateWhenSaid = states.last.map(String.init) ?? ""
            return lines.contains { $0.contains("the stream needs") }
        }
        #expect(said, "\(lines)")
        // Said during the stall it explains, not once it is over.
        #expect(stateWhenSaid == "State: stalled", "\(stateWhenSaid)")
        // While the first pre-buffer comes, before the stream's bit rate is known: the speed alone.
        #expect(lines.first?.hasPrefix("motet: \(url): buffering (the connection gives ") == true, "\(lines)")
        // "motet: URL: buffering (the connection gives 1.0 kB/s, the stream needs 16.0 kB/s) — …"
        let line = lines.first { $0.contains("the stream needs") } ?? ""
        #expect(line.hasPrefix("motet: \(url): buffering (the connection gives "), "\(line)")
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        #expect(numbers.count == 2, "\(line)")
        if numbers.count == 2 {
            #expect(numbers[0] > 0.6 && numbers[0] < 1.4, "the connection's speed: \(line)")
            // The fixture's nominal bit rate (pink noise at the default quality) is far above 1 kB/s.
            #expect(numbers[1] > 4 * numbers[0], "what the stream needs: \(line)")
        }
        #expect(lines.count <= 3, "the line is not repeated at every stall: \(lines)")
    }

    @Test func quitAndSkipAreImmediateWhileBlockedOnTheNetwork() throws {
        // Within 3 s (a sanitizer makes everything several times slower: 10 s); without the
        // interruption, a blocked read would last until the network timeout (15 s).
        let bound: Double = ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil ? 3 : 10
        let run = try MotetRun()
        let (server, local) = try NetworkPlaybackTests.served(run, seconds: 20, title: "Stuck")
        try Fixtures.oggVorbis(server.directory + "/after.ogg", seconds: 30, tags: .init(title: "After"))
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int ?? 0
        // Stalls after a fifth: playback starts, then the decoder blocks in a read.
        let stuck = server.url("song.ogg?stall=\(size / 5)")
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", stuck, server.url("after.ogg")], environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Stuck", timeout: 20), "\(term.screen())")
        // A fifth of 20 s plays in about 4 s (plus the 3 s ring): then the decoder waits on the
        // network (the trickle test shows the stalled state itself, in events).
        Thread.sleep(forTimeInterval: 9)
        #expect(server.requests().contains { $0.path.hasPrefix("/song.ogg?stall") && $0.range.isEmpty })
        let skipped = Stopwatch()
        try term.press("n")
        #expect(try term.waitFor("After", timeout: 20), "\(term.screen())")
        #expect(skipped.seconds < bound, "skipping took \(skipped.seconds) s")

        // Blocked while opening (the server sends nothing after the header): quit is immediate.
        let silent = server.url("song.ogg?stall=0")
        let p = try SpawnedProcess([Paths.motet, "--output", "null", "--no-config", "--status", "quiet", silent], environment: run.environment)
        Thread.sleep(forTimeInterval: 1)
        #expect(p.isRunning)
        let took = p.secondsToQuit(timeout: 10)
        #expect(took.map { $0 < bound } == true, "quitting took \(took.map { "\($0) s" } ?? "over 10 s")")
    }

    @Test func theHeardPositionStandsWhileTheNetworkIsLateAndGoesOnWithoutAJump() throws {
        let run = try MotetRun()
        let (server, local) = try NetworkPlaybackTests.served(run, seconds: 20, title: "Late")
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int ?? 0
        // A quarter of the file (about 5 s), then 9 s of nothing, then the rest. The clock stands
        // for the gap less what was read ahead when it began (about 3 s) and less the player's
        // start-up after the server's first bytes: about 5.5 s idle. With a 7 s gap it stood 3.5 s
        // idle and 1.5 s once under ThreadSanitizer on a loaded machine (hunt 11), below the 2 s
        // asserted below.
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", server.url("song.ogg?pause=\(size / 4)&for=9")], environment: run.environment)
        defer { term.close() }
        #expect(try term.waitFor("Late", timeout: 20), "\(term.screen())")
        var seconds: [Int] = []
        var sawStalled = false
        for _ in 0..<36 {
            Thread.sleep(forTimeInterval: 0.5)
            // The status line's stalled glyph (StatusLine.glyph).
            if term.rows().contains(where: { $0.hasPrefix("⋯") }) { sawStalled = true }
            // "▶ 0:07 / 0:20 Late — …": the elapsed time.
            guard let line = term.rows().last(where: { $0.contains(" / 0:20") }),
                let time = line.split(separator: " ").first(where: { $0.contains(":") })
            else { continue }
            let parts = time.split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 { seconds.append(parts[0] * 60 + parts[1]) }
        }
        let steps = zip(seconds, seconds.dropFirst()).map { $1 - $0 }
        // Half-second samples see at most 1 s a step (2 on a loaded machine); a jump would be the gap (9 s).
        #expect(steps.allSatisfy { $0 >= 0 && $0 <= 2 }, "the elapsed time jumped: \(seconds)")
        // It stood for at least 2 s (the ring held about 3 s of the 9 s gap), then went on past it.
        var longestStand = 0, standing = 0
        for step in steps {
            standing = step == 0 ? standing + 1 : 0
            longestStand = max(longestStand, standing)
        }
        #expect(longestStand >= 4, "never stood while the network was late: \(seconds)")
        #expect((seconds.last ?? 0) >= 10, "did not go on: \(seconds)")
        #expect(sawStalled, "the status line never showed the stall")
    }
}
