import Foundation
import MotetTestSupport
import Testing

/// Motet as playerctl (a real MPRIS client) sees and drives it, on a private session bus. What the
/// player really did is read from the json delegate's state file.
@Suite(.serialized)
struct PlayerctlTests {
    /// A fresh bus, fixtures in a directory whose name needs percent-encoding, and motet playing them.
    static func start(
        tracks: Int = 2, seconds: Double = 6, artwork: Bool = false, arguments: [String] = []
    ) throws -> (DBusRig, MotetOnBus, BusClient, [String]) {
        let bus = try DBusRig()
        let dir = try Paths.temporaryDirectory("motet-mpris-fixtures") + "/Mötet dir #1"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let files = try MPRISFixtures.tracks(tracks, seconds: seconds, in: dir, artwork: artwork)
        let motet = try MotetOnBus(bus: bus, files: files, arguments: arguments)
        guard bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 15) else {
            throw TestError.failed("motet never took its MPRIS name; stderr: \(motet.stderr)")
        }
        return (bus, motet, BusClient(bus: bus), files)
    }

    @Test func playerctlListsMotet() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 1)
        defer { motet.stop(); bus.stop() }
        let r = try Shell.run(["playerctl", "-l"], environment: bus.environment)
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").contains("motet"))
        #expect(client.playerctlValue(["status"]) == "Playing")
        #expect(motet.stderr.contains("MPRIS: on the session bus as org.mpris.MediaPlayer2.motet"))
    }

    @Test func metadataShowsTitleArtistAlbumLengthAndArtwork() throws {
        let (bus, motet, client, files) = try Self.start(tracks: 1, artwork: true)
        defer { motet.stop(); bus.stop() }
        var fields: [String] = []
        _ = try Shell.waitUntil(timeout: 10) {
            fields = client.playerctlValue([
                "metadata", "--format",
                "{{title}}\t{{artist}}\t{{album}}\t{{mpris:length}}\t{{mpris:artUrl}}\t{{xesam:url}}",
            ]).components(separatedBy: "\t")
            return fields.count == 6 && fields[0] == "Track 1" && !fields[4].isEmpty
        }
        try #require(fields.count == 6, "playerctl metadata: \(fields)")
        #expect(fields[0] == "Track 1")
        #expect(fields[1] == "Ada Artist, Bo Second")
        #expect(fields[2] == "Motet Album")
        let length = Int64(fields[3]) ?? 0
        #expect(abs(length - 6_000_000) < 50_000, "mpris:length \(length) µs for a 6 s file")
        // artUrl: a percent-encoded file:// URI of a file holding exactly the embedded picture.
        let art = fields[4]
        #expect(art.hasPrefix("file:///"))
        #expect(!art.contains(" "))
        let artPath = try #require(art.dropFirst("file://".count).removingPercentEncoding)
        #expect(FileManager.default.contents(atPath: artPath).map { [UInt8]($0) } == MPRISFixtures.png)
        // xesam:url: the file playing, with the space, "#" and "ö" of its directory encoded.
        let url = fields[5]
        #expect(url.hasPrefix("file:///") && !url.contains(" ") && !url.contains("#") && !url.contains("ö"))
        #expect(url.dropFirst("file://".count).removingPercentEncoding == files[0])
    }

    @Test func metadataValuesHaveTheSpecTypes() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 1, artwork: true)
        defer { motet.stop(); bus.stop() }
        var entries: [String: [String: Any]] = [:]
        _ = try Shell.waitUntil(timeout: 10) {
            let metadata = try client.property("org.mpris.MediaPlayer2.Player", "Metadata")
            entries = metadata["data"] as? [String: [String: Any]] ?? [:]
            return entries["xesam:title"] != nil
        }
        #expect(entries["mpris:trackid"]?["type"] as? String == "o")
        #expect((entries["mpris:trackid"]?["data"] as? String)?.hasPrefix("/org/motet/track/") == true)
        #expect(entries["mpris:length"]?["type"] as? String == "x")
        #expect(entries["mpris:artUrl"]?["type"] as? String == "s")
        #expect(entries["xesam:title"]?["type"] as? String == "s")
        #expect(entries["xesam:artist"]?["type"] as? String == "as")
        #expect(entries["xesam:artist"]?["data"] as? [String] == ["Ada Artist", "Bo Second"])
        #expect(entries["xesam:album"]?["type"] as? String == "s")
        #expect(entries["xesam:url"]?["type"] as? String == "s")
        #expect(entries["xesam:userRating"] == nil, "neither liked nor disliked: no rating")
        let rate = try client.property("org.mpris.MediaPlayer2.Player", "Rate")
        #expect(rate["type"] as? String == "d" && rate["data"] as? Double == 1.0)
    }

    @Test func statusFollowsPauseAndPlay() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 1, seconds: 8)
        defer { motet.stop(); bus.stop() }
        #expect(client.playerctlValue(["status"]) == "Playing")

        #expect(try client.playerctl(["pause"]).status == 0)
        #expect(motet.waitForState { $0["state"] as? String == "paused" }, "the player did not pause")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["status"]) == "Paused" })
        // Paused: the position stands still.
        let before = Double(client.playerctlValue(["position"])) ?? -1
        usleep(700_000)
        let after = Double(client.playerctlValue(["position"])) ?? -2
        #expect(abs(after - before) < 0.1, "position moved from \(before) to \(after) while paused")

        #expect(try client.playerctl(["play"]).status == 0)
        #expect(motet.waitForState { $0["state"] as? String == "playing" }, "the player did not resume")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["status"]) == "Playing" })

        #expect(try client.playerctl(["play-pause"]).status == 0)
        #expect(motet.waitForState { $0["state"] as? String == "paused" }, "play-pause did not pause")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["status"]) == "Paused" })
    }

    @Test func nextPlaysTheNextTrack() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 2, seconds: 8)
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" })
        let canGoNext = try client.property("org.mpris.MediaPlayer2.Player", "CanGoNext")
        #expect(canGoNext["data"] as? Bool == true)

        #expect(try client.playerctl(["next"]).status == 0)
        #expect(motet.waitForState { $0["title"] as? String == "Track 2" }, "the player did not move on")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["metadata", "title"]) == "Track 2" })
    }

    @Test func positionAdvancesAndSetPositionSeeks() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 1, seconds: 12)
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { ($0["elapsed"] as? Double ?? 0) > 0.2 })
        let first = Double(client.playerctlValue(["position"])) ?? -1
        usleep(1_000_000)
        let second = Double(client.playerctlValue(["position"])) ?? -1
        #expect(second - first > 0.7 && second - first < 1.5, "position went from \(first) to \(second) in 1 s")

        let capture = try SignalCapture(bus: bus, directory: motet.directory)
        defer { capture.stop() }
        #expect(try client.playerctl(["position", "8"]).status == 0)
        // Playing on from ~2 s cannot reach 7.9 s within 3 s: only the seek can.
        #expect(
            motet.waitForState(timeout: 3) { ($0["elapsed"] as? Double ?? 0) >= 7.9 },
            "the player did not seek: \(motet.state() ?? [:])")
        let now = Double(client.playerctlValue(["position"])) ?? -1
        #expect(now >= 7.9 && now < 10, "position after seeking to 8 s: \(now)")
        // Clients learn of the jump through Seeked (the position itself never signals).
        #expect(
            try Shell.waitUntil(timeout: 5) { capture.messages.contains { $0.contains("member=Seeked") } },
            "no Seeked signal: \(capture.text)")
        let seeked = capture.messages.first { $0.contains("member=Seeked") } ?? ""
        let value = seeked.split(separator: "\n").last.flatMap { Int64($0.split(separator: " ").last ?? "") } ?? -1
        #expect(value >= 7_900_000 && value < 10_000_000, "Seeked(\(value))")

        // A stale track id is ignored, as the spec says.
        let r = try client.call(
            "org.mpris.MediaPlayer2.Player", "SetPosition", ["ox", "/org/motet/track/999999", "1000000"])
        #expect(r.status == 0)
        usleep(500_000)
        #expect((motet.state()?["elapsed"] as? Double ?? 0) >= 8, "a stale SetPosition moved the player")
    }

    @Test func volumeReadsAndWritesThePlayersVolume() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 1, arguments: ["--volume", "80"])
        defer { motet.stop(); bus.stop() }
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["volume"]).hasPrefix("0.8") })
        #expect(try client.playerctl(["volume", "0.5"]).status == 0)
        #expect(motet.waitForState { $0["volume"] as? Int == 50 }, "state: \(motet.state() ?? [:])")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["volume"]).hasPrefix("0.5") })
    }

    @Test func quitEndsThePlayer() throws {
        let (bus, motet, client, _) = try Self.start(tracks: 1)
        defer { motet.stop(); bus.stop() }
        let canQuit = try client.property("org.mpris.MediaPlayer2", "CanQuit")
        #expect(canQuit["data"] as? Bool == true)
        #expect(try client.call("org.mpris.MediaPlayer2", "Quit").status == 0)
        #expect(motet.waitForExit(timeout: 10) == 0, "motet did not quit; stderr: \(motet.stderr)")
        #expect(bus.waitForNameToVanish("org.mpris.MediaPlayer2.motet", timeout: 5))
    }
}
