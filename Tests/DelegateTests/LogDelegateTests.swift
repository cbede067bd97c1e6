import Foundation
import MotetTestSupport
import Testing

/// The log delegate, read back from its file after real runs of the player.
@Suite struct LogDelegateTests {
    @Test func trackLinesShowTheTagsAndFeedbackStateWithControlCharactersEscaped() throws {
        let box = try PlayerSandbox()
        let escTitle = "Red \u{1b}[31mAlert"
        // Two ARTIST comments (oggenc's -a is per input file, so the second one goes in as a comment).
        let files = try box.tracks([escTitle, "Calm"], seconds: 1.5, artists: ["A & B"], album: "Line\nBreak", extra: ["ARTIST=C"])
        let log = box.path("motet.log")
        // Real time (not --untimed), so that each track's now-playing event reaches the delegate
        // rather than being coalesced with the next one.
        let r = try box.run(["--output", "null", "--status", "quiet", "--plugin", "log:path=\(log)"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: log)))
        #expect(!bytes.contains(0x1b), "no raw ESC reaches the log")
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        let first = try #require(lines.first { $0.contains("now-playing") && $0.contains("Red") }, "\(text)")
        #expect(first.contains(#"title="Red \x1b[31mAlert""#), "\(first)")
        #expect(first.contains(#"artists="#) && first.contains(#""A & B""#) && first.contains(#""C""#), "\(first)")
        #expect(first.contains(#"album="Line\x0aBreak""#), "\(first)")
        #expect(first.contains("duration=0:01.5"), "\(first)")
        #expect(first.contains("liked=no") && first.contains("disliked=no") && first.contains("next=yes"), "\(first)")
        let second = try #require(lines.first { $0.contains("now-playing") && $0.contains("Calm") }, "\(text)")
        #expect(second.contains("next=no"), "the last track has no next: \(second)")
        #expect(lines.contains { $0.contains("track-finished reason=completed successfully=yes") })
        #expect(lines.last?.contains("playback-state state=complete") == true, "\(text)")
        // Every line starts with an ISO 8601 UTC timestamp and a level.
        for line in lines {
            #expect(line.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (debug|info|warning|error) "#, options: .regularExpression) != nil, "\(line)")
        }
        var info = stat()
        stat(log, &info)
        #expect(info.st_mode & 0o777 == 0o600, "a new log file is private")
    }

    @Test func jsonFormatWritesOneParsableObjectPerLineAndLevelFilters() throws {
        let box = try PlayerSandbox()
        let damaged = try box.damagedTrack(title: "Broken")
        let all = box.path("all.jsonl")
        let problems = box.path("problems.jsonl")
        // Real time: untimed, a plugin's queued now-playing events coalesce (latest wins, by
        // design) and the track's own now-playing line may be replaced by "nothing playing".
        let r = try box.run([
            "--output", "null", "--status", "quiet",
            "--plugin", "log:path=\(all),format=json,level=debug",
            "--plugin", "log:path=\(problems),format=json,level=error", damaged,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        for file in [all, problems] {
            for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["time"] is String && object?["event"] is String, "\(line)")
            }
        }
        let everything = try String(contentsOfFile: all, encoding: .utf8)
        #expect(everything.contains(#""event":"now-playing""#) && everything.contains(#""event":"shutdown""#))
        let onlyErrors = try String(contentsOfFile: problems, encoding: .utf8).split(separator: "\n")
        #expect(!onlyErrors.isEmpty, "the decode error is logged")
        #expect(onlyErrors.allSatisfy { $0.contains(#""level":"error""#) && $0.contains(#""event":"decode-error""#) }, "\(onlyErrors)")
        let error = try #require(try JSONSerialization.jsonObject(with: Data(onlyErrors[0].utf8)) as? [String: Any])
        #expect((error["message"] as? String)?.contains("damaged.ogg") == true)
        #expect(error["position"] is NSNumber)
    }

    @Test func anExistingLogFileIsAppendedTo() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Only"], seconds: 1)
        let log = box.path("kept.log")
        try "an earlier line\n".write(toFile: log, atomically: true, encoding: .utf8)
        try box.run(["--output", "null", "--status", "quiet", "--plugin", "log:path=\(log)"] + files)  // real time, as above
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("an earlier line\n"))
        #expect(text.contains(#"now-playing title="Only""#), "\(text)")
    }

    @Test func aBadOptionFailsThePluginWithItsReasonAndPlaybackGoesOn() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Still plays"], seconds: 1)
        let r = try box.run(["--output", "null", "--untimed", "--status", "events", "--plugin", "log:level=loud"] + files)
        #expect(r.status == 0)
        #expect(r.stderr.contains("level=loud is not one of debug, info, warning, error"), "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Still plays"), "\(r.stdout)")
    }

    @Test func optionsReachTheDelegateInOrderSoTheLastOfARepeatedKeyWins() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Once"], seconds: 1)
        let log = box.path("order.log")
        let r = try box.run([
            "--output", "null", "--untimed", "--status", "quiet",
            "--plugin", "log:level=error,path=\(log),level=debug",
        ] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        // level=debug, given last, wins: the debug lines (the loading state, shutdown) are there.
        #expect(text.split(separator: "\n").contains { $0.contains("Z debug ") && $0.hasSuffix("shutdown") }, "\(text)")
    }

    @Test func anUndescribedOptionIsRefusedBeforeTheDelegateIsMade() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Still plays"], seconds: 1)
        // Named on the command line: a usage error, before anything plays (a config file's
        // plugin with a bad option is a warning: IntegrationTests' PluginCommandLineTests).
        let r = try box.run(["--output", "null", "--untimed", "--status", "events", "--plugin", "log:colour=red"] + files)
        #expect(r.status == 64)
        #expect(r.stderr.contains("unknown option 'colour' (it has: path, format, level)"), "\(r.stderr)")
        #expect(!r.stdout.contains("Playing"), "\(r.stdout)")
    }
}
