import Foundation
import MotetTestSupport
import Testing

/// Motet through a real PipeWire (pipewire, WirePlumber, pipewire-pulse), the sound server of
/// Debian 12's desktop: a real-time pipe sink captures what was played, at the stream's rate.
@Suite(.serialized) struct PipeWireOutputTests {
    @Test func whatPipeWireReceivesIsBitExactAndComplete() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        try SoundServerChecks.expectBitExactPlayback(through: pipewire)
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
        // The skip started Second from its beginning, all of it bit-exact after the skip's 5 ms
        // fade-in (the de-click, README "Crossfade and fades").
        let range = try #require(PulseRig.nonSilentFrames(secondReference, frameBytes: 4))
        let fadeIn = 44100 * 5 / 1000
        let start = max(range.lowerBound, fadeIn)
        #expect(findSubsequence(Array(secondReference[start * 4..<range.upperBound * 4]), in: captured))
    }

    @Test func theStreamShowsTitleArtistAndIconOnPipeWire() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let run = try MotetRun()
        let ogg = run.path("song.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 15, tags: .init(title: "Night Song", artists: ["The Band", "A Guest"]))
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "pulse", "--no-config", "--status", "quiet", ogg],
            environment: run.environment.merging(pipewire.environment) { $1 }, stderr: run.path("stderr.txt"))
        defer { motet.stop() }
        var inputs = ""
        let shown = try Shell.waitUntil(timeout: 15) {
            inputs = (try? pipewire.pactl(["list", "sink-inputs"]).stdout) ?? ""
            return inputs.contains("media.title = \"Night Song\"")
        }
        let errors = (try? String(contentsOfFile: run.path("stderr.txt"), encoding: .utf8)) ?? ""
        #expect(shown, "\(inputs)\(errors)\(pipewire.logTail())")
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
        try SoundServerChecks.expectALostServerToResume(on: pipewire)
    }

    /// WirePlumber does not cork us: Motet sees the phone stream itself.
    @Test func aPhoneCallPausesMotetAndItsEndResumesItOnPipeWire() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        try SoundServerChecks.expectACallToPauseAndResume(on: pipewire)
    }

    /// A call that was going on before Motet connected counts too, as soon as Motet is there.
    @Test func aCallAlreadyGoingOnInterruptsFromTheStart() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let call = Thread { try? pipewire.playPhoneStream(seconds: 3) }
        call.start()
        Thread.sleep(forTimeInterval: 0.8)
        let music = try SoundServerChecks.Music(on: pipewire)
        music.motet.wait(timeout: 60)
        try SoundServerChecks.expectOneCall(music)
        #expect(try music.endWasPlayed(on: pipewire))
    }

    @Test func aCommunicationStreamIsACallToo() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let music = try SoundServerChecks.Music(on: pipewire)
        try pipewire.playPhoneStream(seconds: 1.0, role: "communication")
        music.motet.wait(timeout: 60)
        try SoundServerChecks.expectOneCall(music)
    }

    @Test func withPauseForCallsNoACallDoesNotInterrupt() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        let music = try SoundServerChecks.Music(on: pipewire, extraArguments: ["--pause-for-calls", "no"])
        try pipewire.playPhoneStream(seconds: 1.0)
        music.motet.wait(timeout: 60)
        let (text, errors) = try music.output()
        #expect(music.motet.exitCode == 0, "\(text)\(errors)")
        #expect(!text.contains("Interrupted"), "\(text)")
        #expect(text.contains("Finished: Music (ok, completed)"), "\(text)")
    }
}
