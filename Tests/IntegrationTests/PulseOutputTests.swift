import Foundation
import MotetTestSupport
import Testing

/// Motet through a real PulseAudio server: a real-time pipe sink captures what was played.
@Suite(.serialized) struct PulseOutputTests {
    @Test func whatPulseAudioReceivesIsBitExactAndComplete() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 2, synth: ["sine", "200-3000"])
        let start = Date()
        let r = try run.run(["--output", "pulse", "--no-config", "--status", "events", ogg], extraEnvironment: pulse.environment)
        let wall = Date().timeIntervalSince(start)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(wall >= 1.9, "real time: 2 s of audio took \(wall) s")
        let reference = try Fixtures.referenceDecode(ogg)
        _ = try Shell.waitUntil(timeout: 3) { pulse.capturedByteCount >= reference.count }
        let captured = pulse.capturedBytes()
        let refRange = try #require(PulseRig.nonSilentFrames(reference, frameBytes: 4))
        let capRange = try #require(PulseRig.nonSilentFrames(captured, frameBytes: 4))
        #expect(capRange.count == refRange.count, "non-silent frames: \(capRange.count) vs \(refRange.count)")
        let cap = Array(captured[capRange.lowerBound * 4..<capRange.upperBound * 4])
        let ref = Array(reference[refRange.lowerBound * 4..<refRange.upperBound * 4])
        #expect(cap == ref)
    }

    /// Starts motet on 5 s of music titled "Music" into `pulse`, its events in stdout.txt, and
    /// returns 1.5 s into the playing.
    private func startMusic(on pulse: PulseRig) throws -> (MotetRun, String, SpawnedProcess) {
        let run = try MotetRun()
        let ogg = run.path("music.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 5, synth: ["sine", "300-900"], tags: .init(title: "Music"))
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "pulse", "--no-config", "--status", "events", ogg],
            environment: run.environment.merging(pulse.environment) { $1 }, stdout: run.path("stdout.txt"),
            stderr: run.path("stderr.txt"))
        Thread.sleep(forTimeInterval: 1.5)
        return (run, ogg, motet)
    }

    /// module-role-cork corks us, and the device sees the call too: still one interruption.
    @Test func aPhoneCallInterruptsAndPlaybackResumes() throws {
        let pulse = try PulseRig(roleCork: true)
        defer { pulse.stop() }
        try expectACallToPauseAndResume(on: pulse)
    }

    /// Without module-role-cork nobody corks us: Motet notices the phone stream itself.
    @Test func aPhoneCallInterruptsWithoutRoleCork() throws {
        let pulse = try PulseRig(roleCork: false)
        defer { pulse.stop() }
        try expectACallToPauseAndResume(on: pulse)
    }

    private func expectACallToPauseAndResume(on pulse: PulseRig) throws {
        let (run, ogg, motet, probes) = try startMusicWithProbes(environment: pulse.environment)
        let callStart = Date()
        try pulse.playPhoneStream(seconds: 1.5)
        let callLength = Date().timeIntervalSince(callStart)
        motet.wait(timeout: 60)
        try expectOneInterruptionPerCall(run: run, motet: motet, probes: probes)
        // The interruption paused us: the end of the music is all there after the call.
        let reference = try Fixtures.referenceDecode(ogg)
        let tail = Array(reference.suffix(44100 * 4))  // the last second
        let captured = pulse.capturedBytes()
        #expect(captured.count >= reference.count, "captured \(captured.count / 4) frames of \(reference.count / 4) + call")
        #expect(findSubsequence(tail, in: captured), "the last second of the music is in the capture, bit-exact")
        #expect(callLength > 1.2)
    }

    @Test func losingTheServerIsAnInterruptionAndPlaybackResumes() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let (run, ogg, motet) = try startMusic(on: pulse)
        let out = run.path("stdout.txt")
        pulse.kill()
        Thread.sleep(forTimeInterval: 1.0)
        try pulse.restart()
        let finished = try Shell.waitUntil(timeout: 30) { !motet.isRunning }
        if !finished { motet.stop() }
        motet.wait(timeout: 60)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let errors = (try? String(contentsOfFile: run.path("stderr.txt"), encoding: .utf8)) ?? ""
        #expect(motet.exitCode == 0, "\(text)\(errors)")
        #expect(text.contains("Interrupted: deviceLost"), "\(text)\(errors)")
        #expect(text.contains("Interruption ended: deviceLost"), "\(text)\(errors)")
        #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
        let reference = try Fixtures.referenceDecode(ogg)
        #expect(findSubsequence(Array(reference.suffix(44100 * 4)), in: pulse.capturedBytes()), "the end of the music was played after the restart")
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
