import Foundation
import MotetTestSupport
import Testing

/// Motet through a real PipeWire (pipewire, WirePlumber, pipewire-pulse), the sound server of
/// Debian 12's desktop: a real-time pipe sink captures what was played, at the stream's rate.
@Suite(.serialized) struct PipeWireOutputTests {
    @Test func whatPipeWireReceivesIsBitExactAndComplete() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let run = try MotetRun()
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 2, synth: ["sine", "200-3000"])
        let start = Date()
        let r = try run.run(
            ["--output", "pulse", "--no-config", "--status", "events", ogg], extraEnvironment: pipewire.environment)
        let wall = Date().timeIntervalSince(start)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(wall >= 1.9, "real time: 2 s of audio took \(wall) s")
        let reference = try Fixtures.referenceDecode(ogg)
        _ = try Shell.waitUntil(timeout: 3) { pipewire.capturedByteCount >= reference.count }
        let captured = pipewire.capturedBytes()
        let refRange = try #require(PulseRig.nonSilentFrames(reference, frameBytes: 4))
        let capRange = try #require(PulseRig.nonSilentFrames(captured, frameBytes: 4), "\(pipewire.logTail())")
        #expect(capRange.count == refRange.count, "non-silent frames: \(capRange.count) vs \(refRange.count)")
        let cap = Array(captured[capRange.lowerBound * 4..<capRange.upperBound * 4])
        let ref = Array(reference[refRange.lowerBound * 4..<refRange.upperBound * 4])
        #expect(cap == ref)
    }

    @Test func pauseSeekAndSkipWorkOnPipeWire() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let run = try MotetRun()
        let first = run.path("first.ogg")
        let second = run.path("second.ogg")
        try Fixtures.oggVorbis(
            first, seconds: 12, synth: ["sine", "300-900"], tags: .init(title: "First", artists: ["Band"]), serial: 1)
        try Fixtures.oggVorbis(
            second, seconds: 2, synth: ["sine", "1000-3000"], tags: .init(title: "Second", artists: ["Band"]), serial: 2)
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "pulse", "--no-config", first, second],
            environment: run.environment.merging(pipewire.environment) { $1 })
        defer { term.close() }
        #expect(try term.waitFor("First — Band"), "\(term.screen())")
        Thread.sleep(forTimeInterval: 1.0)
        let lastSound = { lastSoundByte(pipewire.capturedBytes()) }

        try term.press(" ")  // pause: nothing more is heard
        Thread.sleep(forTimeInterval: 0.7)
        let pausedAt = lastSound()
        Thread.sleep(forTimeInterval: 1.0)
        #expect(lastSound() == pausedAt, "sound went on while paused")
        try term.press(" ")  // and on again
        #expect(try Shell.waitUntil(timeout: 5) { lastSound() > pausedAt }, "\(term.screen())")

        try term.pressKey("Right")  // +5 s
        Thread.sleep(forTimeInterval: 1.5)
        try term.press("n")
        #expect(try term.waitFor("Second — Band"), "\(term.screen())")
        #expect(try Shell.waitUntil(timeout: 20) { !term.isRunning }, "\(term.screen())")

        let captured = pipewire.capturedBytes()
        let firstReference = try Fixtures.referenceDecode(first)
        let secondReference = try Fixtures.referenceDecode(second)
        // The seek jumped over 4.0–4.1 s (it came about 2 s in) and played on from beyond 5 s.
        let chunk = { (at: Double) in Array(firstReference[Int(at * 44100) * 4..<Int((at + 0.1) * 44100) * 4]) }
        #expect(findSubsequence(chunk(0.5), in: captured), "the start of First was played")
        #expect(!findSubsequence(chunk(4.0), in: captured), "4.0 s of First was skipped by the seek")
        #expect(
            stride(from: 5.0, to: 11.0, by: 0.1).contains { findSubsequence(chunk($0), in: captured) },
            "First went on after the seek")
        #expect(!findSubsequence(chunk(11.5), in: captured), "First's end was skipped")
        // The skip started Second from its beginning, all of it bit-exact.
        let range = try #require(PulseRig.nonSilentFrames(secondReference, frameBytes: 4))
        #expect(findSubsequence(Array(secondReference[range.lowerBound * 4..<range.upperBound * 4]), in: captured))
    }

    @Test func theStreamShowsTitleArtistAndIconOnPipeWire() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let run = try MotetRun()
        let ogg = run.path("song.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 4, tags: .init(title: "Night Song", artists: ["The Band", "A Guest"]))
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "pulse", "--no-config", "--status", "quiet", ogg],
            environment: run.environment.merging(pipewire.environment) { $1 })
        defer { motet.stop() }
        var inputs = ""
        let shown = try Shell.waitUntil(timeout: 5) {
            inputs = (try? pipewire.pactl(["list", "sink-inputs"]).stdout) ?? ""
            return inputs.contains("media.title = \"Night Song\"")
        }
        #expect(shown, "\(inputs)")
        #expect(inputs.contains("media.artist = \"The Band, A Guest\""), "\(inputs)")
        #expect(inputs.contains("application.icon_name = \"multimedia-player\""), "\(inputs)")
        #expect(inputs.contains("media.role = \"music\""), "\(inputs)")
        let dump = try pipewire.pwDump()
        #expect(dump.contains("\"media.title\": \"Night Song\""))
        #expect(dump.contains("\"media.artist\": \"The Band, A Guest\""))
        // PipeWire's own name for the key (pipewire-pulse translates pulse's application.icon_name).
        #expect(dump.contains("\"application.icon-name\": \"multimedia-player\""))
    }

    @Test func losingPipeWireIsAnInterruptionAndPlaybackResumes() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let (run, ogg, motet) = try startMusic(on: pipewire)
        pipewire.kill()
        Thread.sleep(forTimeInterval: 1.0)
        try pipewire.restart()
        let finished = try Shell.waitUntil(timeout: 30) { !motet.isRunning }
        if !finished { motet.stop() }
        motet.wait(timeout: 60)
        let text = try String(contentsOfFile: run.path("stdout.txt"), encoding: .utf8)
        let errors = (try? String(contentsOfFile: run.path("stderr.txt"), encoding: .utf8)) ?? ""
        #expect(motet.exitCode == 0, "\(text)\(errors)")
        #expect(text.contains("Interrupted: deviceLost"), "\(text)\(errors)")
        #expect(text.contains("Interruption ended: deviceLost"), "\(text)\(errors)")
        #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
        let reference = try Fixtures.referenceDecode(ogg)
        #expect(
            findSubsequence(Array(reference.suffix(44100 * 4)), in: pipewire.capturedBytes()),
            "the end of the music was played after the restart")
    }

    @Test func aPhoneCallPausesMotetAndItsEndResumesItOnPipeWire() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let (run, ogg, motet, probes) = try startMusicWithProbes(environment: pipewire.environment)
        try pipewire.playPhoneStream(seconds: 1.5)
        motet.wait(timeout: 60)
        try expectOneInterruptionPerCall(run: run, motet: motet, probes: probes)
        let reference = try Fixtures.referenceDecode(ogg)
        #expect(
            findSubsequence(Array(reference.suffix(44100 * 4)), in: pipewire.capturedBytes()),
            "the last second of the music is in the capture, bit-exact, after the call")
    }

    @Test func withPauseForCallsNoACallDoesNotInterrupt() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let (run, _, motet) = try startMusic(on: pipewire, extraArguments: ["--pause-for-calls", "no"])
        try pipewire.playPhoneStream(seconds: 1.0)
        motet.wait(timeout: 60)
        let text = try String(contentsOfFile: run.path("stdout.txt"), encoding: .utf8)
        #expect(motet.exitCode == 0, "\(text)")
        #expect(!text.contains("Interrupted"), "\(text)")
        #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
    }

    /// Starts motet on 5 s of music titled "Music" into `pipewire`, its events in stdout.txt, and
    /// returns 1.5 s into the playing.
    private func startMusic(on pipewire: PipeWireRig, extraArguments: [String] = []) throws -> (MotetRun, String, SpawnedProcess) {
        let run = try MotetRun()
        let ogg = run.path("music.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 5, synth: ["sine", "300-900"], tags: .init(title: "Music"))
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "pulse", "--no-config", "--status", "events"] + extraArguments + [ogg],
            environment: run.environment.merging(pipewire.environment) { $1 }, stdout: run.path("stdout.txt"),
            stderr: run.path("stderr.txt"))
        Thread.sleep(forTimeInterval: 1.5)
        return (run, ogg, motet)
    }
}

/// Starts motet on 5 s of music titled "Music" with two probe delegates (their lines in
/// probe-a.txt and probe-b.txt) and its events in stdout.txt, and returns 1.5 s into the playing.
func startMusicWithProbes(environment: [String: String]) throws -> (MotetRun, String, SpawnedProcess, [String]) {
    let run = try MotetRun()
    let ogg = run.path("music.ogg")
    try Fixtures.oggVorbis(ogg, seconds: 5, synth: ["sine", "300-900"], tags: .init(title: "Music"))
    let probe = try ProbePlugin.build(in: run.home)
    let probes = [run.path("probe-a.txt"), run.path("probe-b.txt")]
    let motet = try SpawnedProcess(
        [Paths.motet, "--output", "pulse", "--no-config", "--status", "events"]
            + probes.flatMap { ["--plugin", "\(probe):out=\($0)"] } + [ogg],
        environment: run.environment.merging(environment) { $1 }, stdout: run.path("stdout.txt"),
        stderr: run.path("stderr.txt"))
    Thread.sleep(forTimeInterval: 1.5)
    return (run, ogg, motet, probes)
}

/// One call was one interruption: began and ended once each, on the player's output and on every
/// delegate, and the music then played to its end.
func expectOneInterruptionPerCall(run: MotetRun, motet: SpawnedProcess, probes: [String]) throws {
    let text = try String(contentsOfFile: run.path("stdout.txt"), encoding: .utf8)
    let errors = (try? String(contentsOfFile: run.path("stderr.txt"), encoding: .utf8)) ?? ""
    #expect(motet.exitCode == 0, "\(text)\(errors)")
    #expect(text.components(separatedBy: "Interrupted: corked").count == 2, "\(text)\(errors)")
    #expect(text.components(separatedBy: "Interruption ended: corked").count == 2, "\(text)")
    #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
    for probe in probes {
        let lines = ProbePlugin.lines(probe)
        #expect(lines.filter { $0.hasPrefix("interruption-began") }.count == 1, "\(probe): \(lines)")
        #expect(lines.filter { $0.hasPrefix("interruption-ended") }.count == 1, "\(probe): \(lines)")
    }
}

/// The byte index after the last non-zero byte (0 when all is silence).
func lastSoundByte(_ bytes: [UInt8]) -> Int {
    bytes.lastIndex(where: { $0 != 0 }).map { $0 + 1 } ?? 0
}
