import Foundation
import MotetTestSupport
import Testing

/// Faults from issue 6, with the real `motet` binary on real file systems (tmpfs mounts: these
/// tests run as root, where directory permissions stop nothing): a disk that fills up and a
/// read-only directory, for the WAV output and the json delegate; and SIGTERM at any moment of a
/// 1,000-track untimed run. What a user must see: one clear line naming the file, the reason and
/// what to do; no crash; no file cut short that passes for a complete one.
@Suite struct FaultTests {
    // MARK: The WAV output

    @Test func aDiskThatFillsUpMidTrackKeepsWhatWasWrittenAsAPartialFileAndSaysSo() throws {
        let run = try MotetRun("motet-fault")
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 3, synth: ["sine", "200-4000"])
        let reference = try Fixtures.referenceDecode(ogg)
        let disk = try TmpfsMount(kibibytes: 256)
        defer { disk.unmount() }
        let out = disk.file("song.wav")
        let partial = disk.file("song.partial.wav")

        let r = try runBounded(run, ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", ogg])

        #expect(r.ended, "motet ends (no retrying forever)")
        #expect(r.status == 74, "the output failed: exit 74 (EX_IOERR)\n\(r.stderr)")
        let said = lines(r.stderr, mentioning: "song")
        #expect(said.count == 1, "one line about the file:\n\(r.stderr)")
        let line = String(said.first ?? "")
        #expect(line.hasPrefix("motet: cannot write the WAV file \(out): No space left on device"), "\(line)")
        #expect(line.contains("kept as \(partial)") && line.hasSuffix("free some space or choose another path"), "\(line)")
        #expect(disk.names == ["song.partial.wav"], "no song.wav that looks complete: \(disk.names)")
        let wav = try StrictWAV(partial)
        #expect(wav.channels == 2 && wav.rate == 44100 && wav.bits == 16)
        #expect(wav.dataSize > 200_000, "most of the 256 KiB disk holds sound: \(wav.dataSize) bytes")
        #expect(wav.dataSize < reference.count)
        #expect(isPrefix(try wav.data(partial), of: reference), "what was kept is the start of the track, not one frame lost")
        let tenths = (wav.frames * 10 + 22050) / 44100
        #expect(line.contains("the \(tenths / 10).\(tenths % 10) s written so far"), "\(line)")
    }

    @Test func aDiskThatFillsUpInANumberedFileKeepsTheFinishedOneWhole() throws {
        let run = try MotetRun("motet-fault")
        let stereo = run.path("stereo.ogg"), mono = run.path("mono48.ogg")
        try Fixtures.oggVorbis(stereo, seconds: 0.8, serial: 1)
        try Fixtures.oggVorbis(mono, seconds: 2, rate: 48000, channels: 1, synth: ["sine", "100-3000"], serial: 2)
        let disk = try TmpfsMount(kibibytes: 256)
        defer { disk.unmount() }
        let out = disk.file("song.wav")

        let r = try runBounded(run, ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", stereo, mono])

        #expect(r.ended, "motet ends (no retrying forever)")
        #expect(r.status == 74, "the output failed: \(r.stderr)")
        #expect(disk.names == ["song.2.partial.wav", "song.wav"], "\(disk.names)")
        let said = lines(r.stderr, mentioning: "song.2")
        #expect(said.count == 2, "the new file is announced, then its failure: \(r.stderr)")
        #expect(said.last?.hasPrefix("motet: cannot write the WAV file \(disk.file("song.2.wav")): No space left on device") == true)
        #expect(said.last?.contains("kept as \(disk.file("song.2.partial.wav"))") == true)
        let first = try StrictWAV(out)
        #expect(try first.data(out) == Data(try Fixtures.referenceDecode(stereo)), "the finished file is whole")
        let partial = disk.file("song.2.partial.wav")
        let second = try StrictWAV(partial)
        #expect(second.channels == 1 && second.rate == 48000)
        #expect(second.frames > 0)
        #expect(isPrefix(try second.data(partial), of: try Fixtures.referenceDecode(mono)))
    }

    @Test func aDiskThatIsFullFromTheStartLeavesNoWAVFile() throws {
        let run = try MotetRun("motet-fault")
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 1)
        let disk = try TmpfsMount(kibibytes: 64)
        defer { disk.unmount() }
        try disk.fill()
        let out = disk.file("song.wav")

        let r = try runBounded(run, ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", ogg])

        #expect(r.ended, "motet ends (no retrying forever)")
        #expect(r.status == 74, "the output failed: \(r.stderr)")
        #expect(
            lines(r.stderr, mentioning: "song")
                == [
                    "motet: cannot write the WAV file \(out): No space left on device; removed it (it held no sound yet); free some space or choose another path"
                ], "\(r.stderr)")
        #expect(disk.names == ["filler"], "\(disk.names)")
    }

    @Test func aReadOnlyDirectoryForTheWAVFileFailsBeforePlaying() throws {
        let run = try MotetRun("motet-fault")
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 1)
        let disk = try TmpfsMount(readOnly: true)
        defer { disk.unmount() }
        let out = disk.file("song.wav")

        let r = try runBounded(run, ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", ogg])

        #expect(r.ended, "motet ends (no retrying forever)")
        #expect(r.status == 74, "the output failed: \(r.stderr)")
        #expect(r.stderr == "motet: cannot create the WAV file \(out): Read-only file system; choose a writable path\n")
        #expect(!r.stdout.contains("Playing"), "nothing was played: \(r.stdout)")
        #expect(disk.names.isEmpty)
    }

    // MARK: The json delegate

    @Test(arguments: ["path", "events"])
    func aReadOnlyDirectoryForAJSONFileIsReportedAndPlaybackGoesOn(_ option: String) throws {
        let run = try MotetRun("motet-fault")
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 0.5)
        let disk = try TmpfsMount(readOnly: true)
        defer { disk.unmount() }
        let file = disk.file(option == "path" ? "now-playing.json" : "events.jsonl")
        let state = option == "path" ? file : run.path("now-playing.json")
        let out = run.path("out.wav")

        let r = try runBounded(
            run, ["--output", "wav:\(out)", "--untimed", "--no-config", "--plugin", "json:path=\(state)" + (option == "events" ? ",events=\(file)" : ""), ogg])

        #expect(r.ended)
        #expect(r.status == 0, "the player plays on: \(r.stderr)")
        let said = lines(r.stderr, mentioning: file)
        #expect(said.count == 1, "\(r.stderr)")
        let line = String(said.first ?? "")
        #expect(line.hasPrefix("json: error: \(option == "path" ? "state" : "events") file '\(file)': "), "\(line)")
        #expect(line.contains(": Read-only file system; choose a writable place or set \(option)= to another file"), "\(line)")
        #expect(try StrictWAV(out).dataSize == (try Fixtures.referenceDecode(ogg)).count, "the whole track was played")
        #expect(disk.names.isEmpty)
    }

    /// The state file keeps its previous complete version while the disk is full (no temporary file
    /// left), the events file never ends with half a line, each file's failure is said once (per
    /// failure), and both are written again once there is room.
    @Test func aFullDiskForTheJSONFilesKeepsThemWholeAndTheyRecover() throws {
        let run = try MotetRun("motet-fault")
        var files: [String] = []
        for i in 0..<12 {
            let f = run.path(String(format: "T%02d.ogg", i))
            try Fixtures.oggVorbis(f, seconds: 0.4, synth: ["sine", "\(300 + 40 * i)"], tags: .init(title: String(format: "T%02d", i)), serial: 50 + i)
            files.append(f)
        }
        let disk = try TmpfsMount(kibibytes: 256)  // room for all 12 tracks' events once the filler is gone (64 KiB filled up again near the end)
        defer { disk.unmount() }
        let state = disk.file("now-playing.json")
        let events = disk.file("events.jsonl")
        let stderr = run.path("stderr.txt")
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "null", "--no-config", "--status", "quiet", "--plugin", "json:path=\(state),events=\(events)"] + files,
            environment: run.environment, stderr: stderr)
        defer { motet.stop() }
        func said() -> String { (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "" }
        func title() -> String? { JSONDelegateFiles.state(state)?["title"] as? String }

        #expect(try Shell.waitUntil(timeout: 15) { (title() ?? "") >= "T01" }, "playing: \(String(describing: title()))")
        try disk.fill()
        let bothFailed = try Shell.waitUntil(timeout: 10) {
            said().contains("json: error: state file") && said().contains("json: error: events file")
        }
        #expect(bothFailed, "\(said())")
        let whileFull = FileManager.default.contents(atPath: state)
        Thread.sleep(forTimeInterval: 0.9)  // two more tracks begin
        #expect(FileManager.default.contents(atPath: state) == whileFull, "the state file is not replaced while the disk is full")
        let kept = run.path("state-while-full.json")
        try whileFull?.write(to: URL(fileURLWithPath: kept))
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: kept) == "")
        #expect(disk.names == ["events.jsonl", "filler", "now-playing.json"], "no temporary file left: \(disk.names)")
        let linesWhileFull = try JSONDelegateFiles.events(events).count  // throws on half a line

        try FileManager.default.removeItem(atPath: disk.file("filler"))
        let recovered = try Shell.waitUntil(timeout: 10) {
            said().contains("json: state file '\(state)': writing again") && said().contains("json: events file '\(events)': writing again")
        }
        #expect(recovered, "\(said())")
        #expect(motet.wait(timeout: 20), "motet ends")
        #expect(motet.exitCode == 0, "\(said())")

        let stateLines = lines(said(), mentioning: "json: error: state file")
        #expect(stateLines.count == 1, "said once: \(said())")
        #expect(
            stateLines.first
                == "json: error: state file '\(state)': cannot write its new version: No space left on device; it keeps the previous state; free some space (will keep trying)")
        // tmpfs counts whole pages: a line short enough for the slack of the events file's last
        // page is still appended while the disk is full, and then the next longer one fails again.
        // So the events file's failure is said once per failure, never twice in a row, and the
        // last word is that it is written again.
        let eventLines = lines(said(), mentioning: "json: error: events file")
        let eventTalk = lines(said(), mentioning: "events file '\(events)'")
        for (i, line) in eventTalk.enumerated() {
            #expect(line.contains("json: error: ") == i.isMultiple(of: 2), "said once per failure: \(said())")
        }
        #expect(eventTalk.count.isMultiple(of: 2) && eventTalk.last?.hasSuffix("writing again") == true, "\(said())")
        #expect(
            eventLines.first
                == "json: error: events file '\(events)': cannot append to it: No space left on device; events are left out of it until it can be written again (it still ends with a whole line); free some space (will keep trying)")
        let all = try JSONDelegateFiles.events(events)
        #expect(all.count > linesWhileFull, "events land again once there is room")
        #expect(all.last?["event"] as? String == "shutdown")
        #expect(all.contains { ($0["current"] as? [String: Any])?["title"] as? String == "T11" }, "the last track is in the events file")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "events", file: events) == "")
        #expect(JSONDelegateFiles.state(state)?["playerState"] as? String == "exited")
        #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: state) == "")
        #expect(disk.names == ["events.jsonl", "now-playing.json"], "\(disk.names)")
    }

    // MARK: SIGTERM at any moment

    /// When a run of the 1,000-track test gets its SIGTERM.
    enum StopPoint: CustomStringConvertible {
        /// This long after motet blocked the stop signals, first thing in main (start-up: options,
        /// plugins, the first open). Before that, SIGTERM's default action would end it before it
        /// has created any file.
        case after(seconds: Double)
        /// As soon as the WAV file holds this many sample bytes (a share of the whole run).
        case whenWritten(bytes: Int)
        /// Once the WAV file holds the whole run, if motet is still running then.
        case atTheEnd

        var description: String {
            switch self {
            case .after(let s): String(format: "%.3f s into main", s)
            case .whenWritten(let b): "at \(b / 4) frames"
            case .atTheEnd: "at the end"
            }
        }
    }

    /// A 1,000-track untimed run (five 0.3 s tracks, repeated by a playlist) to a WAV file with the
    /// json delegate, stopped by SIGTERM at moments spread from just after the start to the end:
    /// a few by time (start-up, counted from when motet blocks the signal in main), the rest when the WAV file reaches a given share of the whole run
    /// (so the spread holds however loaded the machine is). Every time: the documented exit status,
    /// a WAV file whose sizes match its length and whose frames are exactly the start of the whole
    /// run (nothing lost or doubled), and JSON files that parse and follow their schemas.
    @Test func sigtermAtAnyMomentOfAThousandTrackRunLeavesValidFiles() throws {
        let run = try MotetRun("motet-sigterm")
        var decoded: [[UInt8]] = []
        var names: [String] = []
        for i in 0..<5 {
            let name = "t\(i).ogg"
            try Fixtures.oggVorbis(
                run.path(name), seconds: 0.3, synth: ["sine", "\(200 + 150 * i)-\(2000 + 500 * i)"],
                tags: .init(title: "Track \(i)"), serial: 10 + i)
            decoded.append(try Fixtures.referenceDecode(run.path(name)))
            names.append(name)
        }
        let playlist = run.path("thousand.m3u")
        try (0..<1000).map { names[$0 % 5] + "\n" }.joined().write(toFile: playlist, atomically: true, encoding: .utf8)
        var reference: [UInt8] = []
        reference.reserveCapacity(decoded.map(\.count).reduce(0, +) * 200)
        for i in 0..<1000 { reference += decoded[i % 5] }

        /// One run, stopped at `point`. Returns the frames in the WAV file.
        func stopped(_ point: StopPoint, _ label: String) throws -> Int {
            let dir = run.path(label)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let out = dir + "/out.wav", state = dir + "/now-playing.json", events = dir + "/events.jsonl"
            let stderr = dir + "/stderr.txt"
            let motet = try SpawnedProcess(
                [Paths.motet, "--output", "wav:\(out)", "--untimed", "--no-config", "--status", "quiet",
                 "--plugin", "json:path=\(state),events=\(events)", playlist],
                environment: run.environment, stderr: stderr)
            defer { motet.stop() }
            func written() -> Int {
                var info = stat()
                return stat(out, &info) == 0 ? max(0, Int(info.st_size) - 44) : 0
            }
            _ = try Shell.waitUntil(timeout: 60, interval: 0.0005) { blocksSignal(motet.pid, SIGTERM) || !motet.isRunning }
            switch point {
            case .after(let seconds):
                Thread.sleep(forTimeInterval: seconds)
            case .whenWritten(let bytes):
                _ = try Shell.waitUntil(timeout: 120, interval: 0.0005) { written() >= bytes || !motet.isRunning }
            case .atTheEnd:
                _ = try Shell.waitUntil(timeout: 120, interval: 0.0005) { written() >= reference.count || !motet.isRunning }
            }
            motet.signal(SIGTERM)
            let ended = motet.wait(timeout: 60)
            let said = (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? ""
            #expect(ended, "\(label): motet ends after SIGTERM")
            let status = motet.exitCode
            // Documented: a quit (SIGTERM) is 0, whether or not anything played yet.
            #expect(status == 0, "\(label): exit 0 after SIGTERM, not a crash: \(String(describing: status))\n\(said)")
            #expect(!said.contains("WAV"), "\(label): no complaint about the WAV file: \(said)")

            var frames = 0
            if FileManager.default.fileExists(atPath: out) {
                let wav = try StrictWAV(out)
                frames = wav.frames
                #expect(wav.channels == 2 && wav.rate == 44100 && wav.bits == 16, "\(label)")
                #expect(isPrefix(try wav.data(out), of: reference), "\(label): the \(frames) frames are the start of the run, nothing lost or doubled")
            }

            #expect(JSONDelegateFiles.state(state) != nil, "\(label): the state file is one whole JSON object")
            let lines = try JSONDelegateFiles.events(events)  // throws on a line that does not parse
            #expect(!lines.isEmpty, "\(label)")
            #expect(try JSONDelegateFiles.schemaErrors([("now-playing", state), ("events", events)]) == "", "\(label)")
            return frames
        }

        let sanitized = ProcessInfo.processInfo.environment["MOTET_SANITIZER"] != nil
        var points: [StopPoint] = [.after(seconds: 0), .after(seconds: 0.005), .after(seconds: 0.02), .whenWritten(bytes: 1)]
        // Shares of the whole run, denser early: 0.4%, 1.6%, 3.5%, … 90%.
        let shares = sanitized ? 5 : 14
        for k in 1...shares {
            let share = 0.9 * pow(Double(k) / Double(shares), 2)
            points.append(.whenWritten(bytes: Int(share * Double(reference.count)) / 4 * 4))
        }
        points.append(.atTheEnd)
        var seen: [String] = []
        for (k, point) in points.enumerated() {
            let frames = try stopped(point, "stop-\(k)")
            seen.append("\(point): \(frames)")
            if case .atTheEnd = point {
                #expect(frames * 4 == reference.count, "a run stopped at its end holds every frame of the 1,000 tracks")
            }
        }
        print("SIGTERM runs (frames written of \(reference.count / 4)): " + seen.joined(separator: "; "))
    }
}
