import Foundation
import MotetTestSupport
import Testing

/// The MPRIS object as the bus sees it: signatures, signals, names, the vendor interface, refusals,
/// and what happens without a bus.
@Suite(.serialized)
struct BusBehaviourTests {
    @Test func introspectionShowsTheSpecSignatures() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 1)
        defer { motet.stop(); bus.stop() }
        let r = try client.busctl(["introspect", "org.mpris.MediaPlayer2.motet", "/org/mpris/MediaPlayer2"])
        #expect(r.status == 0)
        // busctl's columns: NAME TYPE SIGNATURE RESULT/VALUE FLAGS.
        var rows: [String: [String]] = [:]
        var interface = ""
        for line in r.stdout.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard columns.count >= 2 else { continue }
            if columns[1] == "interface" {
                interface = columns[0]
            } else if columns[0].hasPrefix(".") {
                rows[interface + columns[0]] = Array(columns.dropFirst())
            }
        }
        func row(_ name: String) -> [String] { rows[name] ?? [] }
        let player = "org.mpris.MediaPlayer2.Player"
        #expect(row(player + ".Seek").prefix(2) == ["method", "x"])
        #expect(row(player + ".SetPosition").prefix(2) == ["method", "ox"])
        #expect(row(player + ".OpenUri").prefix(2) == ["method", "s"])
        for method in ["Next", "Previous", "Pause", "PlayPause", "Stop", "Play"] {
            #expect(row(player + "." + method).prefix(2) == ["method", "-"], "\(method)")
        }
        #expect(row(player + ".Seeked").prefix(2) == ["signal", "x"])
        #expect(row(player + ".Metadata").prefix(2) == ["property", "a{sv}"])
        #expect(row(player + ".Position").prefix(2) == ["property", "x"])
        #expect(!row(player + ".Position").contains("emits-change"), "Position must not announce changes")
        #expect(row(player + ".PlaybackStatus").prefix(2) == ["property", "s"])
        #expect(row(player + ".PlaybackStatus").contains("emits-change"))
        for (name, type) in [("Rate", "d"), ("Volume", "d"), ("LoopStatus", "s"), ("Shuffle", "b")] {
            #expect(row(player + "." + name).prefix(2) == ["property", type], "\(name)")
            #expect(row(player + "." + name).contains("writable"), "\(name) is read-write in the spec")
        }
        for name in ["CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek", "CanControl"] {
            #expect(row(player + "." + name).prefix(2) == ["property", "b"], "\(name)")
        }
        let root = "org.mpris.MediaPlayer2"
        #expect(row(root + ".Quit").first == "method")
        #expect(row(root + ".Raise").first == "method")
        #expect(row(root + ".Identity") == ["property", "s", "\"Motet\"", "emits-change"])
        #expect(row(root + ".SupportedUriSchemes").prefix(2) == ["property", "as"])
        #expect(row(root + ".SupportedMimeTypes").prefix(2) == ["property", "as"])
        let feedback = "org.motet.Feedback"
        for method in ["Like", "Dislike", "Unlike"] {
            #expect(row(feedback + "." + method).prefix(2) == ["method", "-"], "\(method)")
        }
        #expect(row(feedback + ".Liked").prefix(2) == ["property", "b"])
        #expect(row(feedback + ".Disliked").prefix(2) == ["property", "b"])
    }

    @Test func trackChangesAreAnnouncedAndPositionNever() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dir = try Paths.temporaryDirectory("motet-mpris-signals")
        let files = try MPRISFixtures.tracks(2, seconds: 2, in: dir)
        let capture = try SignalCapture(bus: bus, directory: dir)
        defer { capture.stop() }
        let motet = try MotetOnBus(bus: bus, files: files)
        defer { motet.stop() }
        #expect(motet.waitForExit(timeout: 30) == 0, "motet did not play to the end; stderr: \(motet.stderr)")
        usleep(300_000)
        let changes = capture.messages.filter { $0.contains("member=PropertiesChanged") }
        #expect(!changes.isEmpty, "no PropertiesChanged at all: \(capture.text)")
        // Track 2 starting is announced as a change of Metadata carrying its title.
        #expect(
            changes.contains {
                $0.contains("string \"org.mpris.MediaPlayer2.Player\"") && $0.contains("string \"Metadata\"")
                    && $0.contains("string \"Track 2\"")
            }, "no Metadata change for Track 2: \(changes)")
        // The end of the queue shows as Stopped.
        #expect(changes.contains { $0.contains("string \"PlaybackStatus\"") && $0.contains("string \"Stopped\"") })
        // Position is never in a PropertiesChanged.
        #expect(!changes.contains { $0.contains("string \"Position\"") }, "Position was announced: \(changes)")
    }

    @Test func twoPlayersGetTwoBusNames() throws {
        let (bus, first, client, files) = try PlayerctlTests.start(tracks: 1, seconds: 8)
        defer { first.stop(); bus.stop() }
        let second = try MotetOnBus(bus: bus, files: files)
        defer { second.stop() }
        let instanceName = "org.mpris.MediaPlayer2.motet.instance\(second.pid)"
        #expect(bus.waitForName(instanceName, timeout: 15), "second motet: \(second.stderr)")
        #expect(bus.hasName("org.mpris.MediaPlayer2.motet"))
        let list = try Shell.run(["playerctl", "-l"], environment: bus.environment).stdout.split(separator: "\n")
        #expect(list.contains("motet"))
        #expect(list.contains("motet.instance\(second.pid)"))
        // Both answer, each for itself.
        #expect(client.playerctlValue(["status"], player: "motet.instance\(second.pid)") == "Playing")
        #expect(second.stderr.contains("MPRIS: on the session bus as \(instanceName)"))
    }

    @Test func likeAndUnlikeThroughTheVendorInterface() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 1, seconds: 8)
        defer { motet.stop(); bus.stop() }
        #expect(try client.property("org.motet.Feedback", "Liked")["data"] as? Bool == false)

        #expect(try client.call("org.motet.Feedback", "Like").status == 0)
        #expect(motet.waitForState { $0["liked"] as? Bool == true }, "the player did not like the track")
        #expect(try Shell.waitUntil(timeout: 5) { (try? client.property("org.motet.Feedback", "Liked"))?["data"] as? Bool == true })
        #expect(client.playerctlValue(["metadata", "xesam:userRating"]) == "1.0")

        #expect(try client.call("org.motet.Feedback", "Unlike").status == 0)
        #expect(motet.waitForState { $0["liked"] as? Bool == false }, "the player did not clear the like")
        #expect(try Shell.waitUntil(timeout: 5) { (try? client.property("org.motet.Feedback", "Liked"))?["data"] as? Bool == false })
        #expect(client.playerctlValue(["metadata", "xesam:userRating"]) == "", "no rating once cleared")
    }

    @Test func dislikeShowsAsRatingZeroAndNoSkipLeftDisablesNext() throws {
        // No skip allowed: disliking does not skip, so the rating of the playing track shows.
        let (bus, motet, client, _) = try PlayerctlTests.start(
            tracks: 2, seconds: 8, arguments: ["--skip-limit", "0/60"])
        defer { motet.stop(); bus.stop() }
        #expect(try client.call("org.motet.Feedback", "Dislike").status == 0)
        #expect(motet.waitForState { $0["disliked"] as? Bool == true }, "the player did not dislike the track")
        #expect(try Shell.waitUntil(timeout: 5) {
            (try? client.property("org.motet.Feedback", "Disliked"))?["data"] as? Bool == true
        })
        #expect(client.playerctlValue(["metadata", "xesam:userRating"]) == "0.0")
        #expect(client.playerctlValue(["metadata", "title"]) == "Track 1")
        #expect(try client.property("org.mpris.MediaPlayer2.Player", "CanGoNext")["data"] as? Bool == false)
    }

    @Test func refusedCommandsFailAndThePlayerPlaysOn() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 2, seconds: 8, arguments: ["--remote-commands", "no"])
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" && $0["state"] as? String == "playing" })
        let r = try client.call("org.mpris.MediaPlayer2.Player", "Pause")
        #expect(r.status != 0)
        #expect(r.stderr.contains("refused"), "busctl said: \(r.stderr)")
        #expect(try client.call("org.mpris.MediaPlayer2.Player", "Next").status != 0)
        usleep(500_000)
        #expect(motet.state()?["state"] as? String == "playing")
        #expect(motet.state()?["title"] as? String == "Track 1")
        #expect(try client.property("org.mpris.MediaPlayer2.Player", "CanGoNext")["data"] as? Bool == false)
        #expect(try client.property("org.mpris.MediaPlayer2.Player", "CanPause")["data"] as? Bool == false)
    }

    @Test func withoutASessionBusOneLineAndPlaybackGoesOn() throws {
        let dir = try Paths.temporaryDirectory("motet-mpris-nobus")
        let files = try MPRISFixtures.tracks(1, seconds: 2, in: dir)
        let started = Stopwatch()
        let motet = try MotetOnBus(bus: nil, files: files)
        defer { motet.stop() }
        #expect(motet.waitForExit(timeout: 30) == 0, "stderr: \(motet.stderr)")
        #expect(started.seconds < 15, "no bus must not slow the player down")
        let lines = motet.stderr.split(separator: "\n").filter { $0.contains("MPRIS") }
        #expect(lines.count == 1, "expected one line about MPRIS: \(motet.stderr)")
        #expect(lines.first?.contains("media controls are off") == true)
        #expect(motet.stdout.contains("Playing:") && motet.stdout.contains("Track 1"), "not played: \(motet.stdout)")
    }

    @Test func aBusThatNeverAnswersNeitherHangsNorSlowsThePlayer() throws {
        let dir = try Paths.temporaryDirectory("motet-mpris-silent")
        let silent = try SilentSocket(directory: dir)
        // A 1 s track: the player ends long before the plugin's 5 s timeout, and quits at once.
        let shortFiles = try MPRISFixtures.tracks(1, seconds: 1, in: dir)
        var started = Stopwatch()
        let short = try MotetOnBus(busAddress: silent.address, files: shortFiles)
        defer { short.stop() }
        #expect(short.waitForExit(timeout: 30) == 0, "stderr: \(short.stderr)")
        #expect(started.seconds < 4, "shutdown waited for the silent bus")

        // A 7 s track: after 5 s the plugin gives up with one line; playback goes on to the end.
        let longDir = dir + "/long"
        try FileManager.default.createDirectory(atPath: longDir, withIntermediateDirectories: true)
        let longFiles = try MPRISFixtures.tracks(1, seconds: 7, in: longDir)
        started = Stopwatch()
        let long = try MotetOnBus(busAddress: silent.address, files: longFiles)
        defer { long.stop() }
        #expect(long.waitForExit(timeout: 30) == 0, "stderr: \(long.stderr)")
        let elapsed = started.seconds
        #expect(elapsed > 6.5 && elapsed < 10, "7 s of playback took \(elapsed) s")
        let lines = long.stderr.split(separator: "\n").filter { $0.contains("MPRIS") }
        #expect(lines.count == 1 && lines.first?.contains("did not answer within 5 s") == true, "\(long.stderr)")
        withExtendedLifetime(silent) {}  // the socket stays silent (not closed) until here
    }
}
