import Foundation
import MotetTestSupport
import Testing

/// What a person sees at the command line: help, version, errors, bad input, exit codes.
@Suite struct CommandLineTests {
    @Test func helpAndVersionExitZero() throws {
        let run = try MotetRun()
        let help = try run.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--output"))
        #expect(help.stdout.contains("--plugin"))
        let version = try run.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("motet "))
    }

    @Test func aBadOptionNamesTheOptionAndExits64() throws {
        let run = try MotetRun()
        let r = try run.run(["--volume", "150", "x.ogg"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--volume"))
        #expect(r.stderr.contains("150"))
        let unknown = try run.run(["--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--frobnicate"))
    }

    @Test func badInputsGetOneLineEachAndPlaybackGoesOn() throws {
        let run = try MotetRun()
        let good = run.path("good.ogg")
        try Fixtures.oggVorbis(good, seconds: 0.3, tags: .init(title: "Good Song", artists: ["Ann"], album: "LP"))
        let notOgg = run.path("notogg.ogg")
        try "hello, I am text".write(toFile: notOgg, atomically: true, encoding: .utf8)
        let empty = run.path("empty.ogg")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let dirOgg = run.path("dir.ogg")
        try FileManager.default.createDirectory(atPath: dirOgg, withIntermediateDirectories: true)
        let truncated = run.path("truncated.ogg")
        let whole = try Data(contentsOf: URL(fileURLWithPath: good))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: truncated))
        let missing = run.path("missing.ogg")
        let out = run.path("out.wav")
        let r = try run.run(
            ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events",
             missing, notOgg, empty, dirOgg, good, truncated])
        #expect(r.status == 0, "something played, so exit 0: \(r.stderr)")
        #expect(r.stdout.contains("Playing: Good Song — Ann — LP"))
        for bad in [missing, notOgg, empty] {
            let lines = r.stderr.split(separator: "\n").filter { $0.contains(bad) }
            #expect(lines.count == 1, "one line for \(bad): \(r.stderr)")
        }
        #expect(r.stderr.contains("dir.ogg"))
        #expect(try wavData(out).data.count >= (try Fixtures.referenceDecode(good)).count)
    }

    @Test func nothingPlayableExitsWithNoInput() throws {
        let run = try MotetRun()
        let r = try run.run(["--output", "null", "--untimed", "--no-config", run.path("nope.ogg")])
        #expect(r.status == 66, "EX_NOINPUT: \(r.stderr)")
        #expect(r.stderr.contains("nope.ogg"))
    }

    @Test func tagsWithControlCharactersNeverReachTheTerminal() throws {
        let run = try MotetRun()
        let ogg = run.path("evil.ogg")
        try Fixtures.oggVorbis(
            ogg, seconds: 0.2, tags: .init(title: "Evil\u{1b}]0;pwned\u{07}Title", artists: ["A\u{1b}[31mRed\u{202e}desrever"]))
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", ogg])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("\u{1b}") && !r.stderr.contains("\u{1b}"))
        #expect(r.stdout.contains("Evil\\x1b]0;pwned\\x07Title"))
        #expect(!r.stdout.contains("\u{202e}") && r.stdout.contains("Red\\u{202e}desrever"), "bidi overrides are shown, not obeyed")
    }

    @Test func withNoSoundServerAndNoCardAutoSaysSoAndPlaysToNull() throws {
        let run = try MotetRun()
        let emptyALSAConfig = run.path("asound.conf")
        try "\n".write(toFile: emptyALSAConfig, atomically: true, encoding: .utf8)
        let ogg = run.path("short.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 0.5, tags: .init(title: "Short"))
        let start = Stopwatch()
        let r = try run.run(
            ["--no-config", "--status", "events", ogg],
            extraEnvironment: ["PULSE_SERVER": "unix:/nonexistent", "ALSA_CONFIG_PATH": emptyALSAConfig])
        #expect(r.status == 0, "\(r.stderr)")
        let notices = r.stderr.split(separator: "\n").filter { $0.contains("no sound server") }
        #expect(notices.count == 1, "one line says where the sound went: \(r.stderr)")
        // The fix, not libpulse's words, within 80 columns (the last one left free).
        #expect(notices.first == "motet: no sound server or card found, so no sound: start PulseAudio or PipeWire")
        #expect((notices.first?.count ?? 99) < 80 && !r.stderr.contains("context"))
        #expect(r.stderr.split(separator: "\n").count == 1, "and nothing else: \(r.stderr)")
        #expect(r.stdout.contains("Finished: Short (ok, completed)"))
        #expect(start.seconds >= 0.45, "the null output plays in real time")
    }

    @Test func aStartPastTheEndSaysSoAndGoesOnWithTheNextTrack() throws {
        let run = try MotetRun()
        let short = run.path("short.ogg"), next = run.path("next.ogg")
        try Fixtures.oggVorbis(short, seconds: 0.5, tags: .init(title: "Short"), serial: 1)
        try Fixtures.oggVorbis(next, seconds: 0.3, tags: .init(title: "Next"), serial: 2)
        let alone = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", "--start", "1", short])
        #expect(alone.status == 66, "nothing played (EX_NOINPUT): \(alone.stderr)")
        #expect(alone.stderr == "motet: \(short): --start 1 is past the end (0.5 s)\n")
        #expect(!alone.stdout.contains("Finished: Short"), "no track 'finished' that never played: \(alone.stdout)")
        let both = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", "--start", "1", short, next])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stderr == "motet: \(short): --start 1 is past the end (0.5 s)\n")
        #expect(both.stdout.contains("Finished: Next (ok, completed)"), "\(both.stdout)")
    }

    @Test func theDemoTrackPlaysWithItsTags() throws {
        let run = try MotetRun()
        let r = try run.run(
            ["--output", "null", "--untimed", "--no-config", "--status", "events",
             Paths.packageRoot + "/Examples/demo/motet-demo.ogg"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Playing: Motet Demo — The Motet Players — Demo Sessions"))
        #expect(r.stdout.contains("Finished: Motet Demo (ok, completed)"))
    }

    @Test func aDashReadsTheFilesToPlayFromStandardInput() throws {
        let run = try MotetRun()
        for (i, title) in ["Piped A", "Piped B"].enumerated() {
            try Fixtures.oggVorbis(run.path("\(i).ogg"), seconds: 0.2, tags: .init(title: title), serial: i + 1)
        }
        let r = try Shell.run(
            [Paths.motet, "--output", "null", "--untimed", "--no-config", "--status", "events", "-"], environment: run.environment,
            stdin: "1.ogg\n\(run.path("0.ogg"))\n", currentDirectory: run.home)
        #expect(r.status == 0, "\(r.stderr)")
        let b = r.stdout.range(of: "Playing: Piped B"), a = r.stdout.range(of: "Playing: Piped A")
        #expect(b != nil && a != nil && b!.lowerBound < a!.lowerBound, "\(r.stdout)")
    }

    @Test func emptyTagsAreMissingOnTheStatusLineNotBlank() throws {
        let run = try MotetRun()
        let f = run.path("song.ogg")
        try Fixtures.oggVorbis(f, seconds: 0.2)
        try Fixtures.replaceComments(f, [Array("TITLE=".utf8), Array("ARTIST=".utf8), Array("ALBUM=".utf8)])
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", f])
        #expect(r.stdout.contains("Playing: song — Unknown artist — Unknown album"), "\(r.stdout)")
    }
}
