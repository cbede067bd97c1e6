import Foundation
import MotetTestSupport
import Testing

/// MPRIS 2.2 points that clients rely on (issue #12), each through playerctl and a second client
/// (busctl or gdbus), on the real binary and a private bus.
@Suite(.serialized)
struct SpecComplianceTests {
    static let player = "org.mpris.MediaPlayer2.Player"

    @Test func loopStatusAndShuffleCanBeSetAndAreAnnounced() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 2, seconds: 8)
        defer { motet.stop(); bus.stop() }
        let capture = try SignalCapture(bus: bus, directory: motet.directory)
        defer { capture.stop() }
        #expect(client.playerctlValue(["loop"]) == "None")
        #expect(client.playerctlValue(["shuffle"]) == "Off")

        let loop = try client.playerctl(["loop", "Playlist"])
        #expect(loop.status == 0, "playerctl loop Playlist: \(loop.stderr)")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["loop"]) == "Playlist" })
        let shuffle = try client.playerctl(["shuffle", "On"])
        #expect(shuffle.status == 0, "playerctl shuffle On: \(shuffle.stderr)")
        #expect(try Shell.waitUntil(timeout: 5) {
            (try? client.property(Self.player, "Shuffle"))?["data"] as? Bool == true
        })
        // The second client writes, playerctl reads.
        #expect(try client.busctl(["set-property", "org.mpris.MediaPlayer2.motet", "/org/mpris/MediaPlayer2", Self.player, "LoopStatus", "s", "None"]).status == 0)
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["loop"]) == "None" })
        #expect(try client.busctl(["set-property", "org.mpris.MediaPlayer2.motet", "/org/mpris/MediaPlayer2", Self.player, "Shuffle", "b", "false"]).status == 0)
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["shuffle"]) == "Off" })

        let changes = capture.messages.filter { $0.contains("member=PropertiesChanged") }
        #expect(changes.contains { $0.contains("string \"LoopStatus\"") && $0.contains("string \"Playlist\"") }, "\(changes)")
        #expect(changes.contains { $0.contains("string \"LoopStatus\"") && $0.contains("string \"None\"") }, "\(changes)")
        #expect(changes.contains { $0.contains("string \"Shuffle\"") && $0.contains("boolean true") }, "\(changes)")
        #expect(changes.contains { $0.contains("string \"Shuffle\"") && $0.contains("boolean false") }, "\(changes)")

        // Motet has no single-track repeat: said plainly, with the error name once.
        let track = try client.playerctl(["loop", "Track"])
        #expect(track.status != 0)
        #expect(track.stderr.contains("not a single track"), "\(track.stderr)")
    }

    @Test func openUriAppendsTheFileAndPlaysIt() throws {
        let (bus, motet, client, files) = try PlayerctlTests.start(tracks: 1, seconds: 10)
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" && $0["state"] as? String == "playing" })
        let dir = (files[0] as NSString).deletingLastPathComponent + "/more"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let more = try MPRISFixtures.tracks(3, seconds: 10, in: dir)
        // URIs percent-encoded as a desktop would send them (the directory has a space, "#", "ö").
        func uri(_ path: String) -> String {
            "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
        }

        let opened = try client.playerctl(["open", uri(more[1])])
        #expect(opened.status == 0, "playerctl open: \(opened.stderr)")
        #expect(motet.waitForState { $0["title"] as? String == "Track 2" && $0["state"] as? String == "playing" }, "\(motet.state() ?? [:])")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["metadata", "title"]) == "Track 2" })

        let second = try client.call(Self.player, "OpenUri", ["s", uri(more[2])])
        #expect(second.status == 0, "busctl OpenUri: \(second.stderr)")
        #expect(motet.waitForState { $0["title"] as? String == "Track 3" }, "\(motet.state() ?? [:])")

        let ftp = try client.call(Self.player, "OpenUri", ["s", "ftp://127.0.0.1:9/radio.ogg"])
        #expect(ftp.status != 0)
        #expect(ftp.stderr.contains("file://, http:// and https://"), "\(ftp.stderr)")
        #expect(client.playerctlValue(["metadata", "title"]) == "Track 3")
        let schemes = try client.property("org.mpris.MediaPlayer2", "SupportedUriSchemes")
        #expect(schemes["data"] as? [String] == ["file", "http", "https"], "\(schemes)")
    }

    @Test func everySeekIsAnnouncedHoweverSmall() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 1, seconds: 12)
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { ($0["elapsed"] as? Double ?? 0) > 0.5 })
        let capture = try SignalCapture(bus: bus, directory: motet.directory)
        defer { capture.stop() }
        func seeked() -> [Int64] {
            capture.messages.filter { $0.contains("member=Seeked") }.map { m in
                m.split(separator: "\n").last.flatMap { Int64($0.split(separator: " ").last ?? "") } ?? -1
            }
        }
        // 300 ms forward (playerctl) and 400 ms forward (busctl): both far under the old 1 s guess.
        #expect(try client.playerctl(["position", "0.3+"]).status == 0)
        #expect(try Shell.waitUntil(timeout: 5) { seeked().count == 1 }, "no Seeked for a 0.3 s seek: \(capture.text)")
        #expect(try client.call(Self.player, "Seek", ["x", "400000"]).status == 0)
        #expect(try Shell.waitUntil(timeout: 5) { seeked().count == 2 }, "no Seeked for a 0.4 s seek: \(capture.text)")
        let positions = seeked()
        #expect(positions.allSatisfy { $0 > 500_000 && $0 < 6_000_000 }, "Seeked(\(positions))")
        #expect(positions.count == 2 && positions[1] > positions[0], "Seeked(\(positions))")
        // Playing on is never a seek.
        usleep(1_500_000)
        #expect(seeked().count == 2, "Seeked without a seek: \(positions)")
    }

    @Test func canGoPreviousAndPreviousAgree() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 2, seconds: 10)
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" && ($0["elapsed"] as? Double ?? 0) > 0.5 })
        // The first track, no loop: nothing before it.
        #expect(try client.property(Self.player, "CanGoPrevious")["data"] as? Bool == false)
        let refused = try client.playerctl(["previous"])
        #expect(refused.status != 0, "Previous with CanGoPrevious false must not act")
        usleep(300_000)
        #expect((motet.state()?["elapsed"] as? Double ?? 0) > 0.5, "Previous restarted the track: \(motet.state() ?? [:])")

        #expect(try client.playerctl(["next"]).status == 0)
        #expect(motet.waitForState { $0["title"] as? String == "Track 2" })
        #expect(try Shell.waitUntil(timeout: 5) {
            (try? client.property(Self.player, "CanGoPrevious"))?["data"] as? Bool == true
        })
        #expect(try client.call(Self.player, "Previous").status == 0)
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" })

        // Looping the queue puts the last track before the first.
        #expect(try client.playerctl(["loop", "Playlist"]).status == 0)
        #expect(try Shell.waitUntil(timeout: 5) {
            (try? client.property(Self.player, "CanGoPrevious"))?["data"] as? Bool == true
        })
        #expect(try client.playerctl(["previous"]).status == 0)
        #expect(motet.waitForState { $0["title"] as? String == "Track 2" })
    }

    @Test func errorsNameThemselvesOnce() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 1, seconds: 8, arguments: ["--remote-commands", "no"])
        defer { motet.stop(); bus.stop() }
        let loop = try client.playerctl(["loop", "Playlist"])
        #expect(loop.status != 0)
        #expect(loop.stderr.components(separatedBy: "org.mpris.MediaPlayer2.motet.Refused").count == 2, "\(loop.stderr)")
        #expect(!loop.stderr.contains("GDBus.Error:org.mpris.MediaPlayer2.motet.Refused: GDBus.Error"), "\(loop.stderr)")
        let gdbus = try Shell.run(
            [
                "gdbus", "call", "--session", "-d", "org.mpris.MediaPlayer2.motet", "-o", "/org/mpris/MediaPlayer2",
                "-m", "org.freedesktop.DBus.Properties.Set", "org.mpris.MediaPlayer2.Player", "LoopStatus", "<'Track'>",
            ], environment: bus.environment, timeout: 20)
        #expect(gdbus.status != 0)
        #expect(gdbus.stderr.components(separatedBy: "GDBus.Error").count == 2, "\(gdbus.stderr)")
        #expect(gdbus.stderr.contains("org.freedesktop.DBus.Error.NotSupported: Motet repeats"), "\(gdbus.stderr)")
    }

    @Test func theEndOfTheQueueShowsStoppedWithoutAnEmptyPlayingLine() throws {
        let (bus, motet, _, _) = try PlayerctlTests.start(tracks: 1, seconds: 3)
        defer { motet.stop(); bus.stop() }
        let out = motet.directory + "/follow.txt"
        let follow = try Shell.start(
            ["playerctl", "-p", "motet", "-F", "metadata", "--format", "{{status}}|{{title}}"],
            environment: bus.environment, stdout: out)
        defer { if follow.isRunning { kill(follow.processIdentifier, SIGKILL); follow.waitUntilExit() } }
        #expect(motet.waitForExit(timeout: 20) == 0, "stderr: \(motet.stderr)")
        usleep(500_000)
        let lines = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(lines.contains("Playing|Track 1"), "\(lines)")
        #expect(!lines.contains("Playing|"), "an empty Playing line before Stopped: \(lines)")
        #expect(lines.last?.hasPrefix("Stopped|") == true, "the last line says Stopped: \(lines)")
    }
}
