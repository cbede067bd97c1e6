import Foundation
import MotetTestSupport
import Testing

/// A real Internet radio station (icecast2 fed by ices2, on 127.0.0.1): Motet plays the mount and
/// every surface follows the songs as they come — the JSON delegate and MPRIS (playerctl on a
/// private bus) show each song's title in turn, with the stream's URL and the station's headers,
/// no length and no seeking; killing icecast gives `stalled` (MPRIS still Playing: the user asked
/// to play) and Motet reconnects by itself when the server is back; a second listener sees the same.
@Suite(.serialized)
struct RadioStationTests {
    static let songs = [
        IcecastRig.Song(title: "Aria on Air", artist: "Ada Air", seconds: 6),
        IcecastRig.Song(title: "Bourrée Broadcast", artist: "Bo Band", seconds: 6),
        IcecastRig.Song(title: "Chaconne Channel", artist: "Cy Choir", seconds: 6),
    ]
    static var titles: [String] { songs.map(\.title) }

    /// One listener: the real binary on `--output null` with the json delegate (state and events
    /// files) and, on `bus`, MPRIS.
    final class Listener {
        let run: MotetRun
        let process: SpawnedProcess
        var stateFile: String { run.path("state.json") }
        var eventsFile: String { run.path("events.jsonl") }

        init(_ url: String, bus: DBusRig?, label: String) throws {
            run = try MotetRun(label)
            var env = run.environment
            if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
            var argv = [
                Paths.motet, "--no-config", "--output", "null", "--status", "events", "--reconnect-for", "120",
                "--plugin", "json:path=\(run.path("state.json")),events=\(run.path("events.jsonl")),interval=0.2",
            ]
            if bus != nil { argv += ["--plugin", Paths.plugin("mpris")] }
            process = try SpawnedProcess(
                argv + [url], environment: env, stdout: run.path("stdout.txt"), stderr: run.path("stderr.txt"))
        }

        func stop() { process.stop() }

        /// The decode errors reported so far (the json delegate's decode-error events).
        func decodeErrors() -> [String] {
            let events = (try? JSONDelegateFiles.events(eventsFile)) ?? []
            return events.filter { $0["event"] as? String == "decode-error" }.map { "\($0["error"] ?? "")" }
        }

        var state: [String: Any] { JSONDelegateFiles.state(stateFile) ?? [:] }
        var stderr: String { (try? String(contentsOfFile: run.path("stderr.txt"), encoding: .utf8)) ?? "" }

        /// Waits until the state file satisfies `condition`.
        func waitFor(_ timeout: Double, _ condition: ([String: Any]) -> Bool) -> Bool {
            (try? Shell.waitUntil(timeout: timeout) { condition(self.state) }) ?? false
        }

        /// The titles of the now-playing events, each change once, in order.
        func titles() -> [String] {
            let events = (try? JSONDelegateFiles.events(eventsFile)) ?? []
            var out: [String] = []
            for e in events where e["event"] as? String == "now-playing" {
                guard let title = (e["current"] as? [String: Any])?["title"] as? String else { continue }
                if out.last != title { out.append(title) }
            }
            return out
        }

        /// The file states the events went through (each change once).
        func states() -> [String] {
            let events = (try? JSONDelegateFiles.events(eventsFile)) ?? []
            var out: [String] = []
            for e in events {
                guard let state = (e["current"] as? [String: Any])?["state"] as? String else { continue }
                if out.last != state { out.append(state) }
            }
            return out
        }
    }

    /// True when `seen` holds at least `count` titles that follow the station's playlist order.
    static func followsThePlaylist(_ seen: [String], count: Int) -> Bool {
        guard seen.count >= count else { return false }
        for (a, b) in zip(seen, seen.dropFirst()) {
            guard let i = titles.firstIndex(of: a), titles[(i + 1) % titles.count] == b else { return false }
        }
        return true
    }

    @Test func eachSongReachesTheJSONDelegateAndMPRISInTurnAndASecondListenerSeesTheSame() throws {
        let station = try IcecastRig(songs: Self.songs)
        defer { station.stop() }
        let bus = try DBusRig()
        defer { bus.stop() }
        let first = try Listener(station.url, bus: bus, label: "motet-radio-1")
        defer { first.stop() }
        let second = try Listener(station.url, bus: nil, label: "motet-radio-2")
        defer { second.stop() }
        #expect(bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 20))

        // MPRIS watched as a desktop does: one client following the signals.
        let follow = first.run.path("follow.txt")
        let follower = try SpawnedProcess(
            ["stdbuf", "-oL", "playerctl", "-p", "motet", "-F", "metadata", "--format", "{{status}}|{{title}}"],
            environment: bus.environment, stdout: follow)
        defer { follower.stop() }

        #expect(first.waitFor(30) { $0["state"] as? String == "playing" && $0["title"] is String }, "\(first.state) \(first.stderr)")
        let state = first.state
        #expect(state["url"] as? String == station.url)
        #expect(state["file"] is NSNull)
        #expect(state["duration"] is NSNull, "a live stream has no duration: \(state)")
        let info = state["station"] as? [String: Any]
        #expect(info?["name"] as? String == IcecastRig.stationName, "\(state)")
        #expect(info?["description"] as? String == IcecastRig.stationDescription)
        #expect(info?["genre"] as? String == IcecastRig.stationGenre)
        #expect(info?["url"] as? String == IcecastRig.stationHomepage)

        // MPRIS: the stream's URL, no length, no seeking.
        let client = try Shell.run(
            ["playerctl", "-p", "motet", "metadata", "--format", "{{xesam:url}}|{{mpris:length}}|{{status}}"],
            environment: bus.environment, timeout: 20)
        #expect(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(station.url)||Playing", "\(client)")
        let canSeek = try Shell.run(
            ["busctl", "--user", "get-property", "org.mpris.MediaPlayer2.motet", "/org/mpris/MediaPlayer2",
             "org.mpris.MediaPlayer2.Player", "CanSeek"], environment: bus.environment, timeout: 20)
        #expect(canSeek.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "b false", "\(canSeek)")

        // Every song in turn, on both listeners and over MPRIS: a full round of the playlist.
        let round = Self.titles.count + 1
        #expect(try Shell.waitUntil(timeout: 60) { Self.followsThePlaylist(first.titles(), count: round) }, "\(first.titles())")
        #expect(try Shell.waitUntil(timeout: 20) { Self.followsThePlaylist(second.titles(), count: round) }, "\(second.titles())")
        var mpris: [String] = []
        _ = try Shell.waitUntil(timeout: 20) {
            mpris = []
            for line in FollowerLines.read(follow) {
                let title = String(line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).last ?? "")
                if title.isEmpty || mpris.last == title { continue }
                mpris.append(title)
            }
            return Self.followsThePlaylist(mpris, count: round)
        }
        #expect(Self.followsThePlaylist(mpris, count: round), "MPRIS titles: \(mpris)")

        // Each song's elapsed counts from the start of the song, not of the station.
        let elapsed = first.state["elapsed"] as? Double ?? -1
        #expect(elapsed >= 0 && elapsed < 7, "elapsed \(elapsed) in a 6 s song")

        // Joining mid-stream and each new song are not damage: no decode error on either listener.
        #expect(first.decodeErrors().isEmpty && first.state["lastError"] is NSNull, "\(first.decodeErrors())")
        #expect(second.decodeErrors().isEmpty && second.state["lastError"] is NSNull, "\(second.decodeErrors())")
    }

    @Test func theStatusLineShowsTheStationAndItsGenreAndNoDurationOrBar() throws {
        let station = try IcecastRig(songs: Self.songs)
        defer { station.stop() }
        let run = try MotetRun("motet-radio-tty")
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", station.url], environment: run.environment,
            columns: 120, rows: 12)
        defer { term.close() }
        var row = ""
        let shown = try Shell.waitUntil(timeout: 30) {
            row = term.rows().first { $0.hasPrefix("▶ 0:0") && Self.titles.contains(where: $0.contains) } ?? ""
            return row.contains(IcecastRig.stationName)
        }
        #expect(shown, "\(term.screen())")
        #expect(row.contains(IcecastRig.stationName + "  (" + IcecastRig.stationGenre + ")"), "\(row)")
        // A live stream: elapsed alone, no "/ duration", no progress bar.
        #expect(!row.contains(" / ") && !row.contains("[="), "\(row)")
        #expect(try term.quit())
    }

    @Test func previousAndSeekOnTheStationSayWhyAndTheStationPlaysOn() throws {
        let station = try IcecastRig(songs: Self.songs)
        defer { station.stop() }
        let run = try MotetRun("motet-radio-keys")
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "null", "--no-config", station.url], environment: run.environment,
            columns: 120, rows: 12)
        defer { term.close() }
        // Past the 3 s after which previous restarts a file.
        #expect(try Shell.waitUntil(timeout: 30) { term.statusLine().hasPrefix("▶ 0:04") || term.statusLine().hasPrefix("▶ 0:05") }, "\(term.screen())")
        try term.press("p")
        #expect(try term.waitFor("no previous entry: a live stream cannot go back to the start of the song"), "\(term.screen())")
        try term.press("\u{1b}[C")
        #expect(try term.waitFor("cannot seek in a live stream"), "\(term.screen())")
        // The station plays on: another song comes.
        let onAir = Self.titles.first { term.statusLine().contains($0) }
        #expect(
            try Shell.waitUntil(timeout: 20) {
                let row = term.statusLine()
                return row.hasPrefix("▶") && Self.titles.contains { $0 != onAir && row.contains($0) }
            }, "\(term.screen())")
        #expect(!term.screen().contains("not seekable"), "\(term.screen())")
        #expect(try term.quit())
    }

    @Test func mprisOpenUriTunesInToTheStation() throws {
        let station = try IcecastRig(songs: Self.songs)
        defer { station.stop() }
        let bus = try DBusRig()
        defer { bus.stop() }
        let run = try MotetRun("motet-radio-open")
        let local = run.path("local.ogg")
        try Fixtures.oggVorbis(local, seconds: 30, tags: .init(title: "Local Song", artists: ["Ada"]))
        let listener = try Listener(local, bus: bus, label: "motet-radio-open")
        defer { listener.stop() }
        #expect(bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 20))
        #expect(listener.waitFor(20) { $0["title"] as? String == "Local Song" }, "\(listener.stderr)")
        let opened = try Shell.run(["playerctl", "-p", "motet", "open", station.url], environment: bus.environment, timeout: 20)
        #expect(opened.status == 0, "playerctl open: \(opened.stderr)")
        #expect(listener.waitFor(30) { $0["url"] as? String == station.url && Self.titles.contains($0["title"] as? String ?? "") },
                "\(listener.state) \(listener.stderr)")
    }

    @Test func killingTheServerStallsAndMotetReconnectsWhenItIsBack() throws {
        let station = try IcecastRig(songs: Self.songs)
        defer { station.stop() }
        let bus = try DBusRig()
        defer { bus.stop() }
        let listener = try Listener(station.url, bus: bus, label: "motet-radio-stall")
        defer { listener.stop() }
        #expect(bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 20))
        #expect(listener.waitFor(30) { $0["state"] as? String == "playing" && $0["title"] is String }, "\(listener.stderr)")

        station.stopServer()
        #expect(listener.waitFor(40) { $0["state"] as? String == "stalled" }, "\(listener.state) \(listener.stderr)")
        // Stalled while buffering: MPRIS says Playing (the user asked to play; it resumes by itself).
        let status = try Shell.run(["playerctl", "-p", "motet", "status"], environment: bus.environment, timeout: 20)
        #expect(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Playing", "\(status)")
        #expect(listener.process.isRunning, "Motet gave up on the station: \(listener.stderr)")

        try station.startServer()
        #expect(try Shell.waitUntil(timeout: 30) { station.isOnAir }, "\(station.log("ices.log"))")
        #expect(listener.waitFor(60) { $0["state"] as? String == "playing" }, "\(listener.state) \(listener.stderr)")
        let before = listener.titles().count
        #expect(try Shell.waitUntil(timeout: 30) { listener.titles().count > before }, "no new song after the reconnect")
        let states = listener.states()
        #expect(states.contains("stalled") && states.last == "playing", "\(states)")
        // Across the restart the events do not flicker: no track is announced again just before
        // its finish, and no two states come in the same few milliseconds (a short stall of its own,
        // as under ThreadSanitizer's slow decoding, lasts longer than that).
        let events = (try? JSONDelegateFiles.events(listener.eventsFile)) ?? []
        func track(_ e: [String: Any]) -> Int? { e["event"] as? String == "track-finished" ? e["trackId"] as? Int : (e["current"] as? [String: Any])?["trackId"] as? Int }
        for (a, b) in zip(events, events.dropFirst()) where a["event"] as? String == "now-playing" && b["event"] as? String == "track-finished" {
            let gap = (b["time"] as? Double ?? 0) - (a["time"] as? Double ?? 0)
            #expect(track(a) != track(b) || gap > 0.2, "track \(track(a) ?? -1) announced \(gap) s before its finish: \(a) \(b)")
        }
        let changes = events.filter { $0["event"] as? String == "playback-state" }
        for (a, b) in zip(changes, changes.dropFirst()) {
            let gap = (b["time"] as? Double ?? 0) - (a["time"] as? Double ?? 0)
            #expect(gap >= 0.005, "a state of \(gap) s: \(a) then \(b)")
        }
        // A station sending in real time is not a slow connection.
        #expect(!listener.stderr.contains("the stream needs"), "\(listener.stderr)")
        // Nor is the reconnection's first page.
        #expect(listener.decodeErrors().isEmpty && listener.state["lastError"] is NSNull, "\(listener.decodeErrors())")
    }
}

/// The lines a follower (playerctl -F) has printed so far.
enum FollowerLines {
    static func read(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
