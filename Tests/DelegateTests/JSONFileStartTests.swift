import Foundation
import MotetTestSupport
import Testing

/// What a user meets when the json delegate starts: where the file is, which player wrote it
/// (and whether that player still runs), and one consistent state while the first track loads.
@Suite struct JSONFileStartTests {
    @Test func tildeInPathIsTheHomeDirectory() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Home"], seconds: 1)
        let r = try box.run(["--output", "null", "--untimed", "--status", "quiet", "--plugin", "json:path=~/np.json"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(JSONDelegateFiles.state(box.path("np.json"))?["state"] as? String == "stopped", "\(r.stderr)")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: box.path("np.json")).isEmpty)
    }

    @Test func theDefaultPathIsSaidOnceAtStartAndAChosenOneIsNot() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["One", "Two"], seconds: 0.5)
        let state = box.path("run/motet/now-playing.json")
        let r = try box.run(["--output", "null", "--untimed", "--status", "quiet", "--plugin", "json"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let saying = r.stderr.split(separator: "\n").filter { $0.contains(state) }
        #expect(saying == ["json: state file: \(state) (path= chooses another)"], "\(r.stderr)")

        let chosen = try box.run(["--output", "null", "--untimed", "--status", "quiet", "--plugin", "json:path=\(box.path("np.json"))"] + files)
        #expect(!chosen.stderr.contains("state file"), "\(chosen.stderr)")
    }

    /// The README's shell check says `live` while the player runs and `stale` once it was killed
    /// (the file still says `playing`), and the file names the player's pid and start time.
    @Test func aReaderCanTellTheFileOfAKilledPlayerIsStale() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Crashing"], seconds: 30)
        let state = box.path("run/motet/now-playing.json")
        let motet = try SpawnedProcess(
            box.motet(["--output", "null", "--status", "quiet", "--plugin", "json"] + files), environment: box.environment)
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 15) { JSONDelegateFiles.state(state)?["title"] as? String == "Crashing" })
        let playing = try #require(JSONDelegateFiles.state(state))
        #expect(playing["pid"] as? Int == Int(motet.pid), "\(playing)")
        let stat = try String(contentsOfFile: "/proc/\(motet.pid)/stat", encoding: .utf8)
        let startTime = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")[19]
        #expect(playing["pidStartTime"] as? Int == Int(startTime), "\(playing) vs \(stat)")
        let startedAt = try #require(playing["startedAt"] as? Double)
        #expect(abs(startedAt - Date().timeIntervalSince1970) < 60, "startedAt is Unix time: \(startedAt)")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: state).isEmpty)

        let check = try staleCheckFromREADME()
        let live = try Shell.run(["bash", "-c", check], environment: box.environment)
        #expect(live.stdout == "live\n", "\(live.stdout)\(live.stderr)")

        motet.signal(SIGKILL)
        #expect(motet.wait(timeout: 10))
        #expect(JSONDelegateFiles.state(state)?["state"] as? String == "playing", "the killed player's last word")
        let stale = try Shell.run(["bash", "-c", check], environment: box.environment)
        #expect(stale.stdout == "stale\n", "\(stale.stdout)\(stale.stderr)")
    }

    /// Until the first track is heard the player is loading, and the file says so in both keys
    /// (version 1 said `"state":"playing","playerState":"loading"`). The state is the player's
    /// own word throughout, except `complete` and `exited` (both `stopped`).
    @Test func startUpIsLoadingInBothKeys() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["First"], seconds: 1)
        let events = box.path("ev.jsonl")
        // The player replaces a playback state still waiting for a busy delegate with the newer
        // one, so on a loaded machine `loading` may never reach the file: run again until it does.
        var loading: [String: Any]?
        for _ in 0..<5 where loading == nil {
            try? FileManager.default.removeItem(atPath: events)
            let r = try box.run([
                "--output", "null", "--untimed", "--status", "quiet", "--plugin", "json:path=\(box.path("np.json")),events=\(events)",
            ] + files)
            #expect(r.status == 0, "\(r.stderr)")
            let lines = try JSONDelegateFiles.events(events)
            for line in lines {
                let current = try #require(line["current"] as? [String: Any])
                let (state, playerState) = (current["state"] as? String, current["playerState"] as? String)
                #expect(
                    state == playerState || (state == "stopped" && ["complete", "exited"].contains(playerState)),
                    "\(line["event"] ?? "?"): state \(state ?? "nil"), playerState \(playerState ?? "nil")")
                #expect(current["version"] as? Int == 2)
            }
            loading = lines.first { $0["event"] as? String == "playback-state" && $0["playerState"] as? String == "loading" }
            #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events).isEmpty)
        }
        let line = try #require(loading, "no run of five delivered the loading state")
        #expect(line["state"] as? String == "loading", "\(line)")
    }

    /// The shell block of the README's "Is the file stale?" section, as a reader would paste it.
    func staleCheckFromREADME() throws -> String {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/Plugins/JSONFile/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "### Is the file stale?"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }
}
