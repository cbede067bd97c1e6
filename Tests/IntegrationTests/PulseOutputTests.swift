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
