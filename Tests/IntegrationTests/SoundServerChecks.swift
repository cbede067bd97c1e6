import Foundation
import MotetTestSupport
import Testing

/// What Motet must do on any sound server that speaks the pulse protocol (PulseAudio, PipeWire):
/// the checks `PulseOutputTests` and `PipeWireOutputTests` both run.
enum SoundServerChecks {
    /// 2 s of a sweep reach the server complete, bit-exact against libvorbisfile, in real time:
    /// every frame with sound, in order, nothing missing, nothing added. Silent frames are left out
    /// of the comparison: an underrun (a loaded machine: the suite runs servers side by side)
    /// makes the server play silence between two frames without losing or changing one; it is
    /// said on stdout, not failed.
    /// `arguments` go before the file (plugins, for example); `run` is where it plays (a fresh one
    /// by default). Returns the player's result.
    @discardableResult
    static func expectBitExactPlayback(
        through rig: some SoundServerRig, arguments: [String] = [], in given: MotetRun? = nil
    ) throws -> ProcessResult {
        let run = try given ?? MotetRun()
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 2, synth: ["sine", "200-3000"])
        let start = Stopwatch()
        let r = try run.run(["--output", "pulse", "--no-config", "--status", "events"] + arguments + [ogg], extraEnvironment: rig.environment)
        let wall = start.seconds
        #expect(r.status == 0, "\(r.stderr)")
        #expect(wall >= 1.9, "real time: 2 s of audio took \(wall) s")
        let reference = try Fixtures.referenceDecode(ogg)
        _ = try Shell.waitUntil(timeout: 3) { rig.capturedByteCount >= reference.count }
        let captured = rig.capturedBytes()
        let refRange = try #require(PulseRig.nonSilentFrames(reference, frameBytes: 4))
        let capRange = try #require(PulseRig.nonSilentFrames(captured, frameBytes: 4), "\(rig.logTail(15))")
        let sound = withoutSilentFrames(captured)
        let referenceSound = withoutSilentFrames(reference)
        #expect(sound.count == referenceSound.count, "frames with sound: \(sound.count / 4) vs \(referenceSound.count / 4)")
        #expect(sound == referenceSound, "the frames with sound differ")
        if capRange.count != refRange.count {
            print("note: \(capRange.count - refRange.count) frames of silence between the first and the last sound (an underrun)")
        }
        return r
    }

    /// Motet playing 5 s of music titled "Music" into a rig, 1.5 s in: its events in stdout.txt,
    /// and (when asked) two probe delegates writing to probe-a.txt and probe-b.txt.
    struct Music {
        let run: MotetRun
        let ogg: String
        let motet: SpawnedProcess
        let probes: [String]

        init(on rig: some SoundServerRig, probes withProbes: Bool = false, extraArguments: [String] = []) throws {
            run = try MotetRun()
            ogg = run.path("music.ogg")
            try Fixtures.oggVorbis(ogg, seconds: 5, synth: ["sine", "300-900"], tags: .init(title: "Music"))
            var plugins: [String] = []
            probes = withProbes ? [run.path("probe-a.txt"), run.path("probe-b.txt")] : []
            if withProbes {
                let probe = try ProbePlugin.build(in: run.home)
                plugins = probes.flatMap { ["--plugin", "\(probe):out=\($0)"] }
            }
            motet = try SpawnedProcess(
                [Paths.motet, "--output", "pulse", "--no-config", "--status", "events"] + extraArguments + plugins + [ogg],
                environment: run.environment.merging(rig.environment) { $1 }, stdout: run.path("stdout.txt"),
                stderr: run.path("stderr.txt"))
            Thread.sleep(forTimeInterval: 1.5)
        }

        /// What motet printed (its events), and its stderr.
        func output() throws -> (events: String, errors: String) {
            let events = try String(contentsOfFile: run.path("stdout.txt"), encoding: .utf8)
            return (events, (try? String(contentsOfFile: run.path("stderr.txt"), encoding: .utf8)) ?? "")
        }

        /// Whether the music's last second is in the rig's capture, bit-exact (it was played to the
        /// end after whatever interrupted it). Silent frames are left out on both sides: a server
        /// fills an underrun with silence (a loaded machine, a sanitizer build) without losing data.
        func endWasPlayed(on rig: some SoundServerRig) throws -> Bool {
            let reference = try Fixtures.referenceDecode(ogg)
            return findSubsequence(
                withoutSilentFrames(Array(reference.suffix(44100 * 4))), in: withoutSilentFrames(rig.capturedBytes()))
        }
    }

    /// A phone-role stream pauses Motet; its end resumes it: one interruption, began and ended once
    /// each on the player's output and on every delegate, and the music then plays to its end.
    static func expectACallToPauseAndResume(on rig: some SoundServerRig) throws {
        let music = try Music(on: rig, probes: true)
        let callStart = Stopwatch()
        try rig.playPhoneStream(seconds: 1.5)
        let callLength = callStart.seconds
        music.motet.wait(timeout: 60)
        try expectOneCall(music)
        for probe in music.probes {
            let lines = ProbePlugin.lines(probe)
            #expect(lines.filter { $0.hasPrefix("interruption-began") }.count == 1, "\(probe): \(lines)")
            #expect(lines.filter { $0.hasPrefix("interruption-ended") }.count == 1, "\(probe): \(lines)")
        }
        #expect(try music.endWasPlayed(on: rig), "the last second of the music is in the capture, bit-exact, after the call")
        #expect(callLength > 1.2)
    }

    /// Motet ended well after exactly one interruption by a call (began and ended once each).
    static func expectOneCall(_ music: Music) throws {
        let (text, errors) = try music.output()
        #expect(music.motet.exitCode == 0, "\(text)\(errors)")
        #expect(text.components(separatedBy: "Interrupted: corked").count == 2, "\(text)\(errors)")
        #expect(text.components(separatedBy: "Interruption ended: corked").count == 2, "\(text)")
        #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
    }

    /// The server dies and comes back: an interruption (device lost), and Motet resumes where it was.
    static func expectALostServerToResume(on rig: some SoundServerRig) throws {
        let music = try Music(on: rig)
        rig.kill()
        Thread.sleep(forTimeInterval: 1.0)
        try rig.restart()
        let finished = try Shell.waitUntil(timeout: 30) { !music.motet.isRunning }
        if !finished { music.motet.stop() }
        music.motet.wait(timeout: 60)
        let (text, errors) = try music.output()
        #expect(music.motet.exitCode == 0, "\(text)\(errors)")
        #expect(text.contains("Interrupted: deviceLost"), "\(text)\(errors)")
        #expect(text.contains("Interruption ended: deviceLost"), "\(text)\(errors)")
        #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
        #expect(try music.endWasPlayed(on: rig), "the end of the music was played after the restart")
    }
}

/// Whether `needle` occurs in `haystack` at a frame boundary (4 bytes).
func findSubsequence(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    let first = needle.prefix(16)
    var i = 0
    while i + needle.count <= haystack.count {
        if haystack[i..<i + first.count].elementsEqual(first), haystack[i..<i + needle.count].elementsEqual(needle) { return true }
        i += 4
    }
    return false
}

/// The 4-byte frames of `bytes` that are not all zero.
func withoutSilentFrames(_ bytes: [UInt8]) -> [UInt8] {
    var kept: [UInt8] = []
    kept.reserveCapacity(bytes.count)
    var i = 0
    while i + 4 <= bytes.count {
        if bytes[i] != 0 || bytes[i + 1] != 0 || bytes[i + 2] != 0 || bytes[i + 3] != 0 { kept += bytes[i..<i + 4] }
        i += 4
    }
    return kept
}

/// The byte index after the last non-zero byte (0 when all is silence).
func lastSoundByte(_ bytes: [UInt8]) -> Int {
    bytes.lastIndex(where: { $0 != 0 }).map { $0 + 1 } ?? 0
}
