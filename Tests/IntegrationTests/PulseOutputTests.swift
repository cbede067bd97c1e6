import Foundation
import MotetTestSupport
import Testing

/// Motet through a real PulseAudio server: a real-time pipe sink captures what was played.
@Suite(.serialized) struct PulseOutputTests {
    @Test func whatPulseAudioReceivesIsBitExactAndComplete() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        try SoundServerChecks.expectBitExactPlayback(through: pulse)
    }

    /// PulseAudio's null sink renders up to 2 s ahead: a stream that started after 100 ms underran
    /// at once, every later write ended an underrun with a rewind, and the null sink counted 20 s
    /// of audio as played in about 2 s (the player ended early, on no other sink). Two runs,
    /// since it did not happen every time.
    @Test func theNullSinkPlaysInRealTime() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        let ogg = run.path("ten.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 10, synth: ["sine", "300-900"])
        var environment = pulse.environment
        environment["PULSE_SINK"] = "nullsink"
        for attempt in 1...2 {
            let start = Stopwatch()
            let r = try run.run(["--output", "pulse", "--no-config", "--status", "quiet", ogg], extraEnvironment: environment)
            let wall = start.seconds
            #expect(r.status == 0, "\(r.stderr)")
            #expect(wall >= 9.5, "run \(attempt): 10 s of audio took \(wall) s on the null sink")
        }
    }

    /// module-role-cork corks us, and the device sees the call too: still one interruption.
    @Test func aPhoneCallInterruptsAndPlaybackResumes() throws {
        let pulse = try PulseRig(roleCork: true)
        defer { pulse.stop() }
        try SoundServerChecks.expectACallToPauseAndResume(on: pulse)
    }

    /// Without module-role-cork nobody corks us: Motet notices the phone stream itself.
    @Test func aPhoneCallInterruptsWithoutRoleCork() throws {
        let pulse = try PulseRig(roleCork: false)
        defer { pulse.stop() }
        try SoundServerChecks.expectACallToPauseAndResume(on: pulse)
    }

    @Test func losingTheServerIsAnInterruptionAndPlaybackResumes() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        try SoundServerChecks.expectALostServerToResume(on: pulse)
    }
}
