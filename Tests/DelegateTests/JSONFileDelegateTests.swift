import Foundation
import MotetTestSupport
import Testing

/// The json delegate's state and events files, read back by a JSON parser and validated against
/// the schemas, after real runs of the player.
@Suite struct JSONFileDelegateTests {
    /// Polls the state file until `condition` holds; returns the last object read.
    func waitForState(_ path: String, timeout: Double = 15, _ condition: ([String: Any]) -> Bool) throws
        -> [String: Any]?
    {
        var last: [String: Any]?
        _ = try Shell.waitUntil(timeout: timeout) {
            last = JSONDelegateFiles.state(path)
            return last.map(condition) ?? false
        }
        return last.flatMap { condition($0) ? $0 : nil }
    }

    /// Copies the state file aside and validates the copy (the player keeps writing the original).
    func expectValidState(_ path: String, _ label: String, _ box: PlayerSandbox) throws {
        let copy = box.path("state-\(label).json")
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let errors = try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: copy)
        #expect(errors.isEmpty, "state file after \(label): \(errors)")
    }

    @Test func theFilesFollowPlayPauseLikeSkipAndTheEnd() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["First", "Second"], seconds: 8)
        let state = box.path("now-playing.json")
        let events = box.path("events.jsonl")
        let term = try PlayerTerminal(
            command: box.motet(["--output", "null", "--plugin", "json:path=\(state),events=\(events)"] + files),
            environment: box.environment)
        defer { term.close() }

        let playing = try #require(
            try waitForState(state) { $0["title"] as? String == "First" && $0["state"] as? String == "playing" },
            "\(term.screen())")
        #expect(playing["artist"] as? String == "Band")
        #expect(playing["artists"] as? [String] == ["Band"])
        #expect(playing["album"] as? String == "Record")
        #expect(abs((playing["duration"] as? Double ?? 0) - 8) < 0.05)
        #expect(playing["rate"] as? Double == 1)
        #expect(playing["nextTrackEnabled"] as? Bool == true)
        #expect(playing["nextTrackDisabledReason"] is NSNull && playing["stalledReason"] is NSNull, "\(playing)")
        #expect(playing["liked"] as? Bool == false && playing["disliked"] as? Bool == false)
        #expect(playing["file"] as? String == files[0])
        #expect(playing["elapsed"] is NSNumber && playing["elapsedAt"] is NSNumber)
        try expectValidState(state, "play", box)

        try term.press(" ")
        // The playback-state event and the now-playing event with rate 0 arrive one after the other.
        let paused = try waitForState(state) { $0["state"] as? String == "paused" && $0["rate"] as? Double == 0 }
        #expect(paused != nil, "\(String(describing: JSONDelegateFiles.state(state)))")
        #expect(paused?["title"] as? String == "First")
        try expectValidState(state, "pause", box)

        try term.press(" ")
        #expect(try waitForState(state) { $0["state"] as? String == "playing" && $0["rate"] as? Double == 1 } != nil)
        try term.press("l")
        #expect(try waitForState(state) { $0["liked"] as? Bool == true } != nil, "\(term.screen())")
        try expectValidState(state, "like", box)

        try term.press("n")
        let second = try waitForState(state) { $0["title"] as? String == "Second" }
        #expect(second?["liked"] as? Bool == false, "feedback belongs to the track")
        #expect(second?["nextTrackEnabled"] as? Bool == false, "the last track has no next")
        // The player's own reason, as it would say it to a refused next (plugin ABI 1.3).
        #expect(second?["nextTrackDisabledReason"] as? String == "there is no next track", "\(second ?? [:])")
        try expectValidState(state, "skip", box)

        #expect(try term.quit(), "motet quits on q")
        let end = try #require(JSONDelegateFiles.state(state))
        #expect(end["state"] as? String == "stopped")
        for key in ["title", "artist", "artists", "album", "duration", "elapsed", "rate", "artwork", "file"] {
            #expect(end[key] is NSNull, "nothing playing: \(key) is empty")
        }
        try expectValidState(state, "end", box)

        let lines = try JSONDelegateFiles.events(events)
        let names = lines.compactMap { $0["event"] as? String }
        #expect(names.first == "playback-state" && names.last == "shutdown", "\(names)")
        let skipped = lines.first { $0["event"] as? String == "track-finished" }
        #expect(skipped?["reason"] as? String == "skipped" && skipped?["title"] as? String == "First", "\(names)")
        #expect(lines.contains { ($0["current"] as? [String: Any])?["state"] as? String == "paused" })
        #expect(lines.contains { ($0["current"] as? [String: Any])?["liked"] as? Bool == true })
        // Each line's `current` is what the state file said after that event: never "playing" at
        // rate 0, nor "paused" with a running clock, also between a state and its now-playing.
        for line in lines {
            guard let current = line["current"] as? [String: Any], current["title"] is String else { continue }
            let playing = current["state"] as? String == "playing"
            #expect(current["rate"] as? Double == (playing ? 1 : 0), "after \(line["event"] ?? "?"): \(current)")
        }
        let errors = try JSONDelegateFiles.schemaErrors(kind: "events", file: events)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func aDecodeErrorBecomesLastErrorAndAnEventsLine() throws {
        let box = try PlayerSandbox()
        let damaged = try box.damagedTrack(title: "Scratched")
        let state = box.path("np.json")
        let events = box.path("ev.jsonl")
        let r = try box.run([
            "--output", "null", "--untimed", "--status", "quiet", "--plugin", "json:path=\(state),events=\(events)",
            damaged,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let end = try #require(JSONDelegateFiles.state(state))
        let lastError = try #require(end["lastError"] as? [String: Any], "\(end)")
        #expect((lastError["message"] as? String)?.contains("damaged.ogg") == true, "\(lastError)")
        #expect(lastError["file"] as? String == damaged)
        #expect((lastError["position"] as? Double).map { $0 > 0 && $0 < 6 } == true, "\(lastError)")
        #expect(lastError["code"] is NSNumber)
        let line = try JSONDelegateFiles.events(events).first { $0["event"] as? String == "decode-error" }
        #expect((line?["error"] as? [String: Any])?["message"] as? String == lastError["message"] as? String)
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: state).isEmpty)
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events).isEmpty)
    }

    @Test func anInterruptionByTheSoundServerShowsAsInterrupted() throws {
        let pulse = try PulseRig(roleCork: true)
        defer { pulse.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["Music"], seconds: 8)
        let state = box.path("np.json")
        let events = box.path("ev.jsonl")
        let motet = try SpawnedProcess(
            box.motet(["--output", "pulse", "--status", "quiet", "--plugin", "json:path=\(state),events=\(events)"] + files),
            environment: box.environment.merging(pulse.environment) { $1 }, stderr: box.path("stderr.txt"))
        defer { motet.stop() }
        #expect(try waitForState(state) { $0["state"] as? String == "playing" } != nil)
        Thread.sleep(forTimeInterval: 0.5)
        // A reader polls the state file while the "phone call" plays.
        let seen = Locked<Set<String>>([])
        let stopReading = Locked(false)
        let reader = Thread {
            while !stopReading.value {
                if let s = JSONDelegateFiles.state(state)?["state"] as? String { seen.update { $0.insert(s) } }
                usleep(20_000)
            }
        }
        reader.start()
        try pulse.playPhoneStream(seconds: 1.5)
        #expect(try waitForState(state) { $0["state"] as? String == "playing" } != nil, "playing again after the call")
        stopReading.update { $0 = true }
        motet.stop()
        #expect(seen.value.contains("interrupted"), "states seen: \(seen.value)")
        let lines = try JSONDelegateFiles.events(events)
        let began = lines.first { $0["event"] as? String == "interruption-began" }
        #expect(began?["reason"] as? String == "corked", "\(lines.compactMap { $0["event"] })")
        #expect((began?["current"] as? [String: Any])?["state"] as? String == "interrupted")
        #expect(lines.contains { $0["event"] as? String == "interruption-ended" })
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events).isEmpty)
    }

    @Test func aConcurrentReaderNeverSeesAnInvalidFileDuringAThousandEvents() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["A", "B", "C"], seconds: 0.2)
        let state = box.path("np.json")
        let events = box.path("ev.jsonl")
        let motet = try SpawnedProcess(
            box.motet(["--output", "null", "--untimed", "--loop", "--status", "quiet",
                       "--plugin", "json:path=\(state),events=\(events)"] + files),
            environment: box.environment, stderr: box.path("stderr.txt"))
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 15) { FileManager.default.fileExists(atPath: state) })
        let reads = Locked(0)
        let invalid = Locked<[String]>([])
        let stopReading = Locked(false)
        let reader = Thread {
            while !stopReading.value {
                guard let data = FileManager.default.contents(atPath: state) else {
                    invalid.update { $0.append("missing") }
                    continue
                }
                if (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] == nil {
                    invalid.update { $0.append(String(decoding: data, as: UTF8.self)) }
                }
                reads.update { $0 += 1 }
            }
        }
        reader.start()
        func eventCount() -> Int {
            (FileManager.default.contents(atPath: events) ?? Data()).reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
        }
        let enough = try Shell.waitUntil(timeout: 90) { eventCount() >= 1000 || !motet.isRunning }
        motet.stop()
        stopReading.update { $0 = true }
        #expect(enough && eventCount() >= 1000, "events written: \(eventCount())")
        #expect(reads.value > 100, "the reader read \(reads.value) times")
        #expect(invalid.value.isEmpty, "invalid reads: \(invalid.value.prefix(3))")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events).isEmpty)
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: state).isEmpty)
    }

    @Test func aSymlinkAtTheStatePathIsReplacedNotFollowed() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Only"], seconds: 1)
        let victim = box.path("victim.txt")
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let state = box.path("np.json")
        try FileManager.default.createSymbolicLink(atPath: state, withDestinationPath: victim)
        try box.run(["--output", "null", "--untimed", "--status", "quiet", "--plugin", "json:path=\(state)"] + files)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        let type = try FileManager.default.attributesOfItem(atPath: state)[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        #expect(JSONDelegateFiles.state(state)?["state"] as? String == "stopped")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.home).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "no temporary files left: \(leftovers)")
    }

    @Test func intervalRefreshesElapsedWhilePlaying() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Ticking"], seconds: 5)
        let state = box.path("np.json")
        let events = box.path("ev.jsonl")
        let motet = try SpawnedProcess(
            box.motet(["--output", "null", "--status", "quiet", "--plugin", "json:path=\(state),events=\(events),interval=0.2"] + files),
            environment: box.environment)
        defer { motet.stop() }
        #expect(try waitForState(state) { $0["state"] as? String == "playing" } != nil)
        Thread.sleep(forTimeInterval: 0.5)
        let eventsBefore = try JSONDelegateFiles.events(events).count
        let first = try #require(JSONDelegateFiles.state(state))
        Thread.sleep(forTimeInterval: 1.5)
        let second = try #require(JSONDelegateFiles.state(state))
        #expect(try JSONDelegateFiles.events(events).count == eventsBefore, "no player event in between")
        let e1 = try #require(first["elapsed"] as? Double), e2 = try #require(second["elapsed"] as? Double)
        let a1 = try #require(first["elapsedAt"] as? Double), a2 = try #require(second["elapsedAt"] as? Double)
        #expect(e2 - e1 > 1.0 && e2 - e1 < 2.0, "elapsed went from \(e1) to \(e2)")
        #expect(abs((a2 - a1) - (e2 - e1)) < 0.3, "elapsedAt moves with elapsed: \(a1) → \(a2)")
        #expect(abs(a2 - Date().timeIntervalSince1970) < 1.0, "elapsedAt is Unix time")
    }

    /// Periodic refresh is opt-in (#16: nothing wakes without a reason): without `interval` the
    /// file changes only when something happens, and readers extrapolate from `elapsedAt`.
    @Test func withoutIntervalTheFileIsRewrittenOnlyWhenSomethingHappens() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Still"], seconds: 5)
        let state = box.path("np.json")
        let motet = try SpawnedProcess(
            box.motet(["--output", "null", "--status", "quiet", "--plugin", "json:path=\(state)"] + files),
            environment: box.environment)
        defer { motet.stop() }
        #expect(try waitForState(state) { $0["state"] as? String == "playing" } != nil)
        Thread.sleep(forTimeInterval: 0.5)
        let first = try String(contentsOfFile: state, encoding: .utf8)
        Thread.sleep(forTimeInterval: 1.5)
        let second = try String(contentsOfFile: state, encoding: .utf8)
        #expect(first == second, "the file was rewritten while nothing happened")
    }

    @Test func theDefaultPathIsInTheRuntimeDirectory() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Somewhere"], seconds: 1)
        let r = try box.run(["--output", "null", "--untimed", "--status", "quiet", "--plugin", "json"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let state = box.path("run/motet/now-playing.json")
        #expect(JSONDelegateFiles.state(state)?["state"] as? String == "stopped", "\(r.stderr)")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: state).isEmpty)
    }

    @Test func artworkIsDescribedByTypePathAndSizeNotCopied() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Pictured"], seconds: 1)
        let cover = Fixtures.pictureBlock(mime: "image/png", width: 4, height: 4, data: TestImages.redPNG)
        try Fixtures.addComments(files[0], ["METADATA_BLOCK_PICTURE=" + Data(cover).base64EncodedString()])
        let events = box.path("ev.jsonl")
        try box.run(["--output", "null", "--status", "quiet", "--plugin", "json:path=\(box.path("np.json")),events=\(events)"] + files)
        let playing = try JSONDelegateFiles.events(events).compactMap { $0["current"] as? [String: Any] }
            .first { $0["title"] as? String == "Pictured" }
        let artwork = try #require(playing?["artwork"] as? [String: Any], "\(String(describing: playing))")
        #expect(artwork["mime"] as? String == "image/png")
        #expect(artwork["size"] as? Int == TestImages.redPNG.count)
        let path = try #require(artwork["path"] as? String)
        #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == TestImages.redPNG, "\(path)")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events).isEmpty)
    }

    @Test func aStateFileThatCannotBeWrittenFailsThePluginWithItsReasonAndPlaybackGoesOn() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Plays anyway"], seconds: 1)
        let nowhere = box.path("missing-dir/np.json")
        let r = try box.run(["--output", "null", "--untimed", "--status", "events", "--plugin", "json:path=\(nowhere)"] + files)
        #expect(r.status == 0)
        #expect(r.stdout.contains("Finished: Plays anyway"), "\(r.stdout)")
        #expect(r.stderr.contains("missing-dir") && r.stderr.contains("No such file or directory"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: box.path("missing-dir")))
    }

    @Test func hostileTagsComeBackExactlyThroughAJSONParser() throws {
        let box = try PlayerSandbox()
        let title = "Quote \" back\\slash \u{1b}[2J tab\tline\u{2028}end é 🎵"
        let files = try box.tracks([title], seconds: 1, artists: ["</script>&"], album: "\u{7f}\u{85}")
        let events = box.path("ev.jsonl")
        try box.run(["--output", "null", "--status", "quiet", "--plugin", "json:path=\(box.path("np.json")),events=\(events)"] + files)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: events)))
        #expect(!bytes.contains(0x1b) && !bytes.contains(0x7f), "controls are escaped, not written raw")
        let current = try JSONDelegateFiles.events(events).compactMap { $0["current"] as? [String: Any] }
            .first { $0["title"] is String }
        #expect(current?["title"] as? String == title)
        #expect(current?["artist"] as? String == "</script>&")
        #expect(current?["album"] as? String == "\u{7f}\u{85}")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events).isEmpty)
    }
}
