import Foundation
import MotetTestSupport
import Testing

/// Time on a real station (icecast2 fed by ices2): the elapsed time of a song is the time listened
/// to it — from tuning in, and again from a reconnection — never past the song; a pause rejoins
/// the station live on resume instead of playing on behind it.
@Suite(.serialized)
struct LiveStreamTimeTests {
    typealias Listener = RadioStationTests.Listener

    /// A track change seen in the events file: when (Unix seconds), which track and its title.
    struct Change {
        var time: Double
        var track: Int
        var title: String
    }

    /// Each change of the now-playing track in `listener`'s events file, in order.
    static func changes(_ listener: Listener) -> [Change] {
        let events = (try? JSONDelegateFiles.events(listener.eventsFile)) ?? []
        var out: [Change] = []
        for e in events where e["event"] as? String == "now-playing" {
            let current = e["current"] as? [String: Any]
            guard let title = current?["title"] as? String, let track = current?["trackId"] as? Int, let time = e["time"] as? Double
            else { continue }
            if out.last?.track != track { out.append(Change(time: time, track: track, title: title)) }
        }
        return out
    }

    /// When (Unix seconds) `listener` said "playing" for the first time after its last "stalled".
    static func firstPlayingAfterTheLastStall(_ listener: Listener) -> Double? {
        let events = (try? JSONDelegateFiles.events(listener.eventsFile)) ?? []
        let states = events.compactMap { e -> (time: Double, state: String)? in
            guard let state = (e["current"] as? [String: Any])?["state"] as? String, let time = e["time"] as? Double else { return nil }
            return (time, state)
        }
        guard let stall = states.lastIndex(where: { $0.state == "stalled" }) else { return nil }
        return states[stall...].first { $0.state == "playing" }?.time
    }

    @Test func afterAReconnectionElapsedNeverRunsPastTheSongOrTheTimeSinceItCameBack() throws {
        // Every song has the same tags: whatever is on air after the reconnection is "the same
        // song" to the player, the case where elapsed used to carry on from before the loss.
        let length = 12.0
        let songs = [
            IcecastRig.Song(title: "Same Song", artist: "Ada Air", seconds: length),
            IcecastRig.Song(title: "Same Song", artist: "Ada Air", seconds: length),
        ]
        let station = try IcecastRig(songs: songs)
        defer { station.stop() }
        let listener = try Listener(station.url, bus: nil, label: "motet-radio-elapsed")
        defer { listener.stop() }
        #expect(listener.waitFor(30) { $0["state"] as? String == "playing" && ($0["elapsed"] as? Double ?? 0) >= 5 }, "\(listener.stderr)")

        station.stopServer()
        #expect(listener.waitFor(40) { $0["state"] as? String == "stalled" }, "\(listener.state) \(listener.stderr)")
        try station.startServer()
        #expect(try Shell.waitUntil(timeout: 30) { station.isOnAir }, "\(station.log("ices.log"))")
        #expect(listener.waitFor(60) { $0["state"] as? String == "playing" }, "\(listener.state) \(listener.stderr)")
        // The player may reconnect before the test sees the station on air: the stream came back
        // when the player said so (its first "playing" after the stall), not when the test looked.
        let back = try #require(Self.firstPlayingAfterTheLastStall(listener), "\(listener.states())")
        let now = { Date().timeIntervalSince1970 }
        var samples: [(since: Double, elapsed: Double)] = []
        while now() - back < length + 4 {
            if let elapsed = listener.state["elapsed"] as? Double { samples.append((now() - back, elapsed)) }
            Thread.sleep(forTimeInterval: 0.25)
        }
        let shown = samples.map { String(format: "%.1f@%.1f", $0.elapsed, $0.since) }.joined(separator: " ")
        #expect(samples.count > 20, "\(shown)")
        // The time listened: never more than the song lasts, nor more than the time since the stream
        // came back (a state file is refreshed every 0.2 s, and the sink holds a little: 1.5 s).
        #expect(samples.allSatisfy { $0.elapsed <= length + 0.5 }, "past the song's \(length) s: \(shown)")
        #expect(samples.allSatisfy { $0.elapsed <= $0.since + 1.5 }, "more than was listened since the reconnection: \(shown)")
        // The same of the file as each event left it, which a reader may catch before the next
        // one: "playing" must not restart the old song's clock (it did, from 4 s, until the next
        // song's now-playing came a moment later; the sampling above caught it now and then).
        for e in try JSONDelegateFiles.events(listener.eventsFile) {
            guard let time = e["time"] as? Double, time >= back, let c = e["current"] as? [String: Any],
                let elapsed = c["elapsed"] as? Double, let at = c["elapsedAt"] as? Double
            else { continue }
            let then = elapsed + max(0, time - at) * (c["rate"] as? Double ?? 0)
            #expect(then <= time - back + 1.5, "\(e["event"] ?? "?") \(String(format: "%.3f", time - back)) s after the reconnection showed \(then) s")
        }
    }

    @Test func resumingAPausedStationRejoinsItLive() throws {
        // A small burst: a listener that connects starts at the live edge, not seconds behind it.
        let songs = [
            IcecastRig.Song(title: "Aria on Air", artist: "Ada Air", seconds: 7, synth: ["pinknoise"]),
            IcecastRig.Song(title: "Bourrée Broadcast", artist: "Bo Band", seconds: 7, synth: ["pinknoise"]),
            IcecastRig.Song(title: "Chaconne Channel", artist: "Cy Choir", seconds: 7, synth: ["pinknoise"]),
        ]
        let station = try IcecastRig(songs: songs, burstSize: 4096)
        defer { station.stop() }
        let bus = try DBusRig()
        defer { bus.stop() }
        // The reference never pauses; the other one pauses for `pause` seconds.
        let reference = try Listener(station.url, bus: nil, label: "motet-radio-reference")
        defer { reference.stop() }
        let paused = try Listener(station.url, bus: bus, label: "motet-radio-paused")
        defer { paused.stop() }
        #expect(bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 20))
        #expect(paused.waitFor(30) { $0["state"] as? String == "playing" && $0["title"] is String }, "\(paused.stderr)")
        #expect(reference.waitFor(30) { $0["state"] as? String == "playing" }, "\(reference.stderr)")

        let pause = 8.0
        #expect(try Shell.run(["playerctl", "-p", "motet", "pause"], environment: bus.environment, timeout: 20).status == 0)
        #expect(paused.waitFor(10) { $0["state"] as? String == "paused" }, "\(paused.state)")
        Thread.sleep(forTimeInterval: pause)
        let resumed = Date().timeIntervalSince1970
        #expect(try Shell.run(["playerctl", "-p", "motet", "play"], environment: bus.environment, timeout: 20).status == 0)

        // Two songs changing on air after the resume: the paused listener hears each change when
        // the reference does, not `pause` seconds later. (The first title after the resume is the
        // song on air when it rejoined, not a change on air.)
        var after: [Change] = []
        _ = try Shell.waitUntil(timeout: 40) {
            after = Self.changes(paused).filter { $0.time > resumed }
            return after.count >= 3
        }
        // The reference may hear the last change a moment later than the other one.
        Thread.sleep(forTimeInterval: 3)
        let heard = Self.changes(reference)
        #expect(after.count >= 3, "\(after) \(paused.stderr)")
        for change in after.dropFirst() {
            let nearest = heard.filter { $0.title == change.title }.map { change.time - $0.time }.min { abs($0) < abs($1) }
            #expect(nearest.map { abs($0) < 3 } == true,
                    "'\(change.title)' came \(nearest.map { String(format: "%.1f", $0) } ?? "?") s after the reference heard it (a pause of \(pause) s)")
        }
        #expect(paused.state["state"] as? String == "playing", "\(paused.state)")
    }

    /// The README's paragraph on live streams is in motet(1) too, word for word.
    @Test func theManPageCarriesTheREADMEsLiveStreamParagraph() throws {
        let run = try MotetRun()
        let generated = try run.run(["--generate", "man"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        let paragraph = try #require(readme.components(separatedBy: "\n\n").first { $0.hasPrefix("A live stream (a station") })
        let plain = paragraph.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "\n", with: " ")
        let page = generated.stdout
        let start = try #require(page.range(of: ".SH LIVE STREAMS\n"), "no LIVE STREAMS section")
        let rest = page[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)]
        #expect(section.trimmingCharacters(in: .whitespacesAndNewlines) == plain.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
