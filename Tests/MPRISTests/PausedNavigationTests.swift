import Foundation
import MotetTestSupport
import Testing

/// Next and seek while paused, on the real binary: the new track (or position) is current at once,
/// paused, in the json delegate's state file and over MPRIS, and commands then apply to it.
@Suite(.serialized)
struct PausedNavigationTests {
    /// Polls `condition` every 5 ms; the seconds it took, or nil after `timeout`.
    static func secondsUntil(timeout: Double = 3, _ condition: () throws -> Bool) rethrows -> Double? {
        let start = Stopwatch()
        while start.seconds < timeout {
            if try condition() { return start.seconds }
            usleep(5_000)
        }
        return nil
    }

    /// The lines `playerctl -F` has printed so far.
    static func followed(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func pausedOnTrack1(_ motet: MotetOnBus, _ client: BusClient) throws {
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" && $0["state"] as? String == "playing" })
        #expect(try client.playerctl(["pause"]).status == 0)
        #expect(motet.waitForState { $0["state"] as? String == "paused" }, "the player did not pause")
    }

    @Test func nextWhilePausedShowsTheNewTrackPausedWithinAFifthOfASecondAndALikeAppliesToIt() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 3, seconds: 8)
        defer { motet.stop(); bus.stop() }
        try Self.pausedOnTrack1(motet, client)

        // MPRIS is watched the way a desktop watches it: one client following the player's
        // signals (not a new process per look, whose start-up would be timed too).
        let follow = motet.directory + "/follow.txt"
        let follower = try SpawnedProcess(
            ["stdbuf", "-oL", "playerctl", "-p", "motet", "-F", "metadata", "--format", "{{status}}|{{title}}"],
            environment: bus.environment, stdout: follow)
        defer { follower.stop() }
        #expect(try Shell.waitUntil(timeout: 5) { Self.followed(follow).contains("Paused|Track 1") }, "playerctl -F")

        #expect(try client.playerctl(["next"]).status == 0)
        // Timed from when the player has the command (playerctl has returned).
        var json: Double?
        var mpris: Double?
        let start = Stopwatch()
        while start.seconds < 3, json == nil || mpris == nil {
            let elapsed = start.seconds
            if json == nil, let s = motet.state(), s["title"] as? String == "Track 2", s["state"] as? String == "paused",
                s["elapsed"] as? Double == 0, s["rate"] as? Double == 0
            {
                json = elapsed
            }
            if mpris == nil, Self.followed(follow).contains("Paused|Track 2") { mpris = elapsed }
            usleep(2_000)
        }
        let jsonSeconds = try #require(json, "the state file never showed Track 2 paused: \(motet.state() ?? [:])")
        let mprisSeconds = try #require(mpris, "MPRIS never showed Track 2 paused: \(Self.followed(follow))")
        #expect(jsonSeconds < 0.2, "the state file showed Track 2 after \(jsonSeconds) s")
        #expect(mprisSeconds < 0.2, "MPRIS showed Track 2 after \(mprisSeconds) s")
        print("next while paused: Track 2 in the state file after \(jsonSeconds) s, over MPRIS after \(mprisSeconds) s")
        #expect(client.playerctlValue(["position"]).hasPrefix("0.0"), "playerctl position while paused on Track 2")

        // A like now is for Track 2, and Track 2 is what plays.
        #expect(try client.call("org.motet.Feedback", "Like").status == 0)
        #expect(motet.waitForState(timeout: 3) { $0["title"] as? String == "Track 2" && $0["liked"] as? Bool == true })
        #expect(try Shell.waitUntil(timeout: 3) {
            (try? client.property("org.motet.Feedback", "Liked"))?["data"] as? Bool == true
        })
        #expect(try client.playerctl(["play"]).status == 0)
        #expect(motet.waitForState { $0["state"] as? String == "playing" && ($0["elapsed"] as? Double ?? 0) > 0.3 })
        #expect(motet.state()?["title"] as? String == "Track 2")
        #expect(motet.state()?["liked"] as? Bool == true)
    }

    @Test func seekWhilePausedShowsTheNewPositionPaused() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 1, seconds: 12)
        defer { motet.stop(); bus.stop() }
        try Self.pausedOnTrack1(motet, client)
        #expect(try client.playerctl(["position", "6"]).status == 0)
        let json = Self.secondsUntil {
            guard let s = motet.state() else { return false }
            return s["state"] as? String == "paused" && abs((s["elapsed"] as? Double ?? 0) - 6) < 0.05
        }
        #expect(json.map { $0 < 0.2 } == true, "state file after the seek: \(motet.state() ?? [:])")
        let position = Double(client.playerctlValue(["position"])) ?? -1
        #expect(abs(position - 6) < 0.05, "playerctl position after seeking to 6 s while paused: \(position)")
        usleep(500_000)
        #expect(motet.state()?["state"] as? String == "paused", "the seek resumed playback")
    }
}
