import Foundation
import MotetTestSupport
import Testing

/// `--crossfade` (issue 22) through a real PulseAudio server: a crossfaded pair played in real time
/// reaches the server as the WAV output has it (which `CrossfadeTests` checks against the
/// equal-power formula), overlap included. Two 6 s sweeps on two albums, so the pair is
/// crossfaded, with `--crossfade 2`: the last 2 s of the first and the first 2 s of the second are
/// one stretch, and the whole lasts a + b − 2 s.
///
/// The capture is compared as `SoundServerChecks.expectBitExactPlayback` compares it: every frame
/// with sound, in order, bit-exact, silent frames left out on both sides (an underrun on a loaded
/// machine makes the server play silence between two frames without losing or changing one).
@Suite(.serialized) struct CrossfadeCaptureTests {
    static let a = (seconds: 6.0, synth: ["sine", "200-2000"], tags: Fixtures.Tags(title: "A", artists: ["Motet"], album: "A"))
    static let b = (seconds: 6.0, synth: ["sine", "3000-300"], tags: Fixtures.Tags(title: "B", artists: ["Motet"], album: "B"))
    /// Frames the two tracks overlap: the whole 2 s, since the shorter track lasts more than 4 s.
    static let overlap = 2 * 44100

    /// The capture spans a + b − overlap: the overlap was played once, not one track after the
    /// other. An underrun adds silence inside the span: any difference from the WAV output's span
    /// is said on stdout, and only one of half the overlap or more (the tracks played one after
    /// the other would add all of it) fails.
    @Test func whatPulseAudioReceivesIsTheWAVOutputWithTheOverlap() throws {
        let pair = try CrossfadeTests().play([Self.a, Self.b], options: ["--crossfade", "2"])
        #expect(pair.result.status == 0, "\(pair.result.stderr)")
        let frames = try pair.files.map { try Fixtures.referenceDecode($0).count / 4 }
        let crossfaded = frames[0] + frames[1] - Self.overlap
        #expect(pair.output.count / 2 == crossfaded, "WAV output: \(pair.output.count / 2) frames, a + b − overlap = \(crossfaded)")
        let wav = pair.output.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }

        let pulse = try PulseRig()
        defer { pulse.stop() }
        let start = Stopwatch()
        let r = try pair.run.run(
            ["--output", "pulse", "--no-config", "--status", "events", "--crossfade", "2"] + pair.files,
            extraEnvironment: pulse.environment)
        let wall = start.seconds
        #expect(r.status == 0, "\(r.stderr)")
        let seconds = Double(crossfaded) / 44100
        #expect(wall >= seconds - 0.1, "real time: \(seconds) s of audio took \(wall) s")

        let wavSound = withoutSilentFrames(wav)
        _ = try Shell.waitUntil(timeout: 3) { withoutSilentFrames(pulse.capturedBytes()).count >= wavSound.count }
        let captured = pulse.capturedBytes()
        let sound = withoutSilentFrames(captured)
        #expect(sound.count == wavSound.count, "frames with sound: \(sound.count / 4) captured, \(wavSound.count / 4) in the WAV output")
        if sound != wavSound {
            let first = zip(sound, wavSound).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset / 4 }
            Issue.record("the frames with sound differ from the WAV output's, first at frame \(first.map(String.init) ?? "none") of the sound")
        }
        let wavSpan = try #require(PulseRig.nonSilentFrames(wav, frameBytes: 4))
        let span = try #require(PulseRig.nonSilentFrames(captured, frameBytes: 4), "\(pulse.logTail(15))")
        #expect(
            abs(span.count - wavSpan.count) < Self.overlap / 2,
            "the capture spans \(span.count) frames, the WAV output \(wavSpan.count) (a + b − overlap = \(crossfaded), a + b = \(frames[0] + frames[1]))")
        if span.count != wavSpan.count {
            print("note: the capture spans \(span.count - wavSpan.count) frames more than the WAV output's sound (an underrun's silence)")
        }
    }
}
