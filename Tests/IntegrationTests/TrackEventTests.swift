import Foundation
import MotetTestSupport
import Testing

/// ABI 1.1 on the real binary: no track is lost to a slow plugin, track-addressed commands, the
/// options listing, and a slow create that does not hold up playback.
@Suite struct TrackEventTests {
    /// `count` short tagged tracks in `run`'s directory.
    private func tracks(_ run: MotetRun, _ count: Int, seconds: Double = 0.2) throws -> [String] {
        try (1...count).map { n in
            let path = run.path(String(format: "%02d.ogg", n))
            try Fixtures.oggVorbis(
                path, seconds: seconds, tags: .init(title: "Song \(n)", artists: ["Ada", "Bo"], album: "Record"), serial: n)
            return path
        }
    }

    /// The value of `key=` in a probe line (up to the next space).
    private func field(_ line: String, _ key: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test func slowPluginsOfBothABIsHearEveryTrackOfTwentyPlayedUntimed() throws {
        let run = try MotetRun("motet-tracks")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 20)
        let old = try ProbePlugin.build(in: run.home, fileName: "old.so", abi1_0: true)
        let new = try ProbePlugin.build(in: run.home, fileName: "new.so")
        let oldOut = run.path("old.out"), newOut = run.path("new.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--untimed", "--status", "quiet",
             "--plugin", "\(old):sleep_ms=50,out=\(oldOut)", "--plugin", "\(new):sleep_ms=50,out=\(newOut)"] + files,
            timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("not keeping up"), "\(result.stderr)")

        // ABI 1.0: a now-playing for each track (at least the first), and every finish.
        let oldLines = ProbePlugin.lines(oldOut)
        #expect(oldLines.first?.hasPrefix("create abi=1.3") == true)  // the host's ABI; the plugin's is 1.0
        for n in 1...20 {
            #expect(oldLines.contains { $0.hasPrefix("np ") && $0.contains("title=Song \(n) artist=Ada, Bo") }, "no now-playing of Song \(n)")
        }
        let oldNowPlayingTracks = Set(oldLines.filter { $0.hasPrefix("np ") }.compactMap { field($0, "track") }.filter { $0 != "0" })
        #expect(oldNowPlayingTracks.count == 20, "now-playing tracks seen: \(oldNowPlayingTracks.sorted())")
        #expect(oldLines.filter { $0.hasPrefix("finished ok=1 reason=0") }.count == 20)
        #expect(!oldLines.contains { $0.hasPrefix("started ") || $0.hasPrefix("unknown-event") })

        // ABI 1.1: started and finished for all 20, in order, with the track data.
        let newLines = ProbePlugin.lines(newOut)
        let started = newLines.filter { $0.hasPrefix("started ") }
        let finished = newLines.filter { $0.hasPrefix("finished-track ") }
        #expect(started.count == 20 && finished.count == 20)
        for (n, (s, f)) in zip(started, finished).enumerated() {
            let file = files[n]
            #expect(s.contains("title=Song \(n + 1) artist=Ada, Bo artists=Ada|Bo album=Record"), "\(s)")
            #expect(s.contains("file=\(file) url=(null) station=(null)"), "\(s)")
            #expect(field(s, "reason") == "0")
            #expect(field(s, "id") == field(f, "id"))
            #expect(f.contains("file=\(file)"), "\(f)")
            let duration = Int64(field(f, "duration") ?? "") ?? 0
            #expect(abs(duration - 200_000) < 1_000, "\(f)")
            let heard = Int64(field(f, "heard") ?? "") ?? 0
            #expect(abs(heard - 200_000) < 5_000, "\(f)")
            #expect((Int64(field(f, "first") ?? "") ?? 0) > 1_600_000_000_000_000, "\(f)")
        }
        // Each track's started comes before its finished, and the starts keep the play order.
        let ids = started.compactMap { field($0, "id") }
        #expect(ids == finished.compactMap { field($0, "id") })
        #expect(Set(ids).count == 20)
    }

    @Test func aLikeNamingATrackThatIsNoLongerCurrentIsRefusedAsStale() throws {
        let run = try MotetRun("motet-stale")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 3, seconds: 0.6)
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("probe.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet", "--plugin", "\(probe):like_stale=yes,out=\(out)"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        let stale = ProbePlugin.lines(out).filter { $0.hasPrefix("stale-like ") }
        #expect(stale.count == 2, "\(ProbePlugin.lines(out))")
        #expect(stale.allSatisfy { $0.hasSuffix("answer=1") }, "\(stale)")  // MOTET_COMMAND_REFUSED
        #expect(result.stderr.contains("is no longer current (stale)"), "\(result.stderr)")
        #expect(!ProbePlugin.lines(out).contains { $0.contains("flags=0x1") || $0.contains("flags=0x5") || $0.contains("flags=0x9") || $0.contains("flags=0xd") },
                "a stale like was acted on")
    }

    @Test func aLikeNamingATrackIdThatNeverExistedIsRefusedAsNoSuchTrack() throws {
        let run = try MotetRun("motet-no-such-track")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 1, seconds: 0.6)
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("probe.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet", "--plugin", "\(probe):like_track=9999,out=\(out)"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ProbePlugin.lines(out).contains("like-track track=9999 answer=1"), "\(ProbePlugin.lines(out))")  // REFUSED
        #expect(result.stderr.contains("command like refused: no such track: 9999"), "\(result.stderr)")
        #expect(!result.stderr.contains("stale"), "\(result.stderr)")
    }

    /// A plugin that likes the last track while it shuts down (a scrobbler flushing its state) is
    /// told the like was refused, not told "accepted" for a like nothing will apply.
    @Test func aLikeSentDuringShutdownIsRefused() throws {
        let run = try MotetRun("motet-shutdown-like")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 1, seconds: 0.6)
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("probe.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet", "--plugin", "\(probe):like_on_shutdown=yes,out=\(out)"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        let like = ProbePlugin.lines(out).filter { $0.hasPrefix("shutdown-like ") }
        #expect(like.count == 1 && like[0].hasSuffix("answer=1"), "\(ProbePlugin.lines(out))")  // MOTET_COMMAND_REFUSED
        #expect(result.stderr.contains("command like refused: motet is quitting"), "\(result.stderr)")
    }

    @Test func aPluginThatLikesOnEveryNowPlayingSendsAtMostOneLikePerTrack() throws {
        let run = try MotetRun("motet-like-loop")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 3, seconds: 1.0)
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("probe.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet", "--plugin", "\(probe):like_each=yes,out=\(out)"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ProbePlugin.lines(out)
        let nowPlaying = lines.filter { $0.hasPrefix("np ") && !$0.contains(" track=0") }
        let likes = lines.filter { $0.hasPrefix("like ") }
        // Each like that changes something makes one new now-playing (like active); a like of a
        // liked track changes nothing and sends nothing, so the loop stops after one round.
        for track in Set(nowPlaying.compactMap { field($0, "track") }) {
            let forTrack = nowPlaying.filter { field($0, "track") == track }
            let liked = forTrack.filter { (Int(field($0, "flags")?.dropFirst(2) ?? "", radix: 16) ?? 0) & 1 == 1 }
            #expect(forTrack.count <= 4, "track \(track): \(forTrack)")
            #expect(liked.count <= 2, "track \(track): \(liked)")
            #expect(likes.filter { field($0, "track") == track }.count <= forTrack.count)
        }
        #expect(Set(nowPlaying.compactMap { field($0, "track") }).count == 3)
        #expect(likes.contains { $0.hasSuffix("answer=0") })
    }

    @Test func listPluginsShowsTheBundledPluginsOptions() throws {
        let run = try MotetRun("motet-list")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let result = try run.run(["--no-config", "--list-plugins"])
        #expect(result.status == 0, "\(result.stderr)")
        for expected in [
            "      level=string (default: info)  debug, info, warning or error: lines below it are dropped\n",
            "      path=output file  a file, appended to (created 0600); standard error when absent\n",
            "      interval=seconds  while playing, rewrite the state file this often",
            "      actions=yes/no (default: yes)  show Like / Dislike / Skip buttons when the server can\n",
        ] {
            #expect(result.stdout.contains(expected), "missing \(expected) in:\n\(result.stdout)")
        }
    }

    @Test func aFifteenSecondCreateDoesNotDelayTheFirstSound() throws {
        let run = try MotetRun("motet-slow-create")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 1, seconds: 1.0)
        let probe = try ProbePlugin.build(in: run.home)
        let slow = run.path("slow.out"), fast = run.path("fast.out"), wav = run.path("out.wav")
        let start = Int64(ProcessInfo.processInfo.systemUptime * 1_000_000)
        let result = try run.run(
            ["--no-config", "--output", "wav:\(wav)", "--status", "quiet",
             "--plugin", "\(probe):create_sleep_ms=15000,out=\(slow)", "--plugin", "\(probe):out=\(fast)"] + files,
            timeout: 60)
        let took = Double(Int64(ProcessInfo.processInfo.systemUptime * 1_000_000) - start) / 1_000_000
        #expect(result.status == 0, "\(result.stderr)")
        // The track (1 s, played in real time) was heard and finished long before create returned.
        let finished = try #require(ProbePlugin.entries(fast).first { $0.text.hasPrefix("finished ") })
        let finishedAfter = Double(finished.micros - start) / 1_000_000
        #expect(finishedAfter < 4, "the first track finished \(finishedAfter) s after the start")
        #expect(try wavData(wav).data.count == (try Fixtures.referenceDecode(files[0])).count)
        // The exit waits the one bounded shutdown time for the sleeping create, then names it.
        #expect(took < 12, "motet took \(took) s")
        #expect(result.stderr.contains("gave up waiting for plugin probe ("), "\(result.stderr)")
    }

    @Test func eachLinkOfAChainedFileIsItsOwnTrackWithItsOwnTimes() throws {
        let run = try MotetRun("motet-links")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let a = run.path("a.ogg"), b = run.path("b.ogg"), chained = run.path("chained.ogg")
        try Fixtures.oggVorbis(a, seconds: 0.5, tags: .init(title: "Link A", artists: ["Ada"]), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 0.3, rate: 22050, channels: 1, tags: .init(title: "Link B", artists: ["Bo"]), serial: 2)
        try Fixtures.chain([a, b], into: chained)
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("probe.out")
        let result = try run.run(
            ["--no-config", "--output", "null", "--untimed", "--status", "quiet", "--plugin", "\(probe):out=\(out)", chained])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ProbePlugin.lines(out)
        let started = lines.filter { $0.hasPrefix("started ") }
        let finished = lines.filter { $0.hasPrefix("finished-track ") }
        #expect(started.count == 2 && finished.count == 2, "\(lines)")
        guard started.count == 2, finished.count == 2 else { return }
        #expect(started[0].contains("title=Link A artist=Ada") && started[1].contains("title=Link B artist=Bo"))
        #expect(field(started[0], "id") != field(started[1], "id"))
        for (f, micros) in zip(finished, [500_000, 300_000] as [Int64]) {
            #expect(abs((Int64(field(f, "duration") ?? "") ?? 0) - micros) < 1_000, "\(f)")
            #expect(abs((Int64(field(f, "position") ?? "") ?? 0) - micros) < 1_000, "\(f)")
            #expect(abs((Int64(field(f, "heard") ?? "") ?? 0) - micros) < 5_000, "\(f)")
        }
        #expect(lines.contains { $0.hasPrefix("np ") && $0.contains("title=Link B") && $0.contains("duration=300000") })
    }

    @Test func openURIAppendsTheFileAndPlaysItAtOnce() throws {
        let run = try MotetRun("motet-open-uri")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let files = try tracks(run, 2, seconds: 3)
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("probe.out")
        // Only the first file on the command line; the plugin asks for the second as a file:// URI.
        let result = try run.run(
            ["--no-config", "--output", "null", "--status", "quiet",
             "--plugin", "\(probe):open_uri=file://\(files[1]),out=\(out)", files[0]], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ProbePlugin.lines(out)
        #expect(lines.contains("open-uri answer=0"), "\(lines)")
        let started = lines.filter { $0.hasPrefix("started ") }
        #expect(started.count == 2, "\(lines)")
        #expect(started.last.map { field($0, "reason") == "4" && $0.contains("file=\(files[1])") } == true, "\(started)")
        let finished = lines.filter { $0.hasPrefix("finished ") }
        #expect(finished.first?.contains("reason=1") == true, "\(finished)")  // the first one was left for it
    }
}

/// `--skip-disliked` end to end: a track disliked in an earlier run is passed over with one line;
/// with every track disliked, also under `--loop`, motet says so and stops.
@Suite struct SkipDislikedTests {
    private func dislike(_ run: MotetRun, _ keys: [String]) throws {
        try FileManager.default.createDirectory(atPath: run.home + "/state/motet", withIntermediateDirectories: true)
        let text = "# motet feedback 1: RATING<TAB>KEY; KEY is tags:TITLE|ARTISTS|ALBUM or path:PATH\n"
            + keys.map { "disliked\t\($0)\n" }.joined()
        try text.write(toFile: run.home + "/state/motet/feedback", atomically: true, encoding: .utf8)
    }

    @Test func aTrackDislikedEarlierIsPassedOverWithOneLine() throws {
        let run = try MotetRun()
        var files: [String] = []
        for (i, title) in ["Good A", "Bad", "Good C"].enumerated() {
            let f = run.path("\(i).ogg")
            try Fixtures.oggVorbis(f, seconds: 0.3, tags: .init(title: title, artists: ["Band"], album: "LP"), serial: i + 1)
            files.append(f)
        }
        try dislike(run, ["tags:bad|band|lp"])
        let quick = ["--no-config", "--output", "null", "--untimed", "--status", "events", "--skip-limit", "0/60"]
        let r = try run.run(quick + files)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "motet: skipping 'Bad': disliked earlier (--skip-disliked no plays it)\n", "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Good A (ok, completed)") && r.stdout.contains("Finished: Good C (ok, completed)"))
        #expect(!r.stdout.contains("Playing: Bad"), "\(r.stdout)")
        // Switched off, it plays.
        let off = try run.run(quick + ["--skip-disliked", "no"] + files)
        #expect(off.status == 0 && off.stderr.isEmpty, "\(off.stderr)")
        #expect(off.stdout.contains("Finished: Bad (ok, completed)"))
    }

    @Test func withEveryTrackDislikedALoopSaysSoAndStops() throws {
        let run = try MotetRun()
        var files: [String] = []
        for (i, title) in ["One", "Two"].enumerated() {
            let f = run.path("\(i).ogg")
            try Fixtures.oggVorbis(f, seconds: 0.3, tags: .init(title: title, artists: ["Band"], album: "LP"), serial: i + 1)
            files.append(f)
        }
        try dislike(run, ["tags:one|band|lp", "tags:two|band|lp"])
        let r = try run.run(["--no-config", "--output", "null", "--status", "events", "--loop"] + files, timeout: 30)
        #expect(r.status == 66, "nothing played (EX_NOINPUT): \(r.stderr)")
        #expect(r.stderr == """
            motet: skipping 'One': disliked earlier (--skip-disliked no plays it)
            motet: skipping 'Two': disliked earlier (--skip-disliked no plays it)
            motet: nothing left to play: all 2 tracks are disliked (--skip-disliked no plays them)

            """, "\(r.stderr)")
    }
}
