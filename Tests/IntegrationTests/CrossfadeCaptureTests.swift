import Foundation
import MotetTestSupport
import Testing

/// `--crossfade` (issue 22) through a real PulseAudio server: a crossfaded pair played in real time
/// reaches the server as the WAV output has it, overlap included. Two 6 s sweeps on two albums
/// (so the pair is crossfaded) with `--crossfade 2`: the last 2 s of the first and the first 2 s of
/// the second are one 2 s stretch, out(t) = a(t)·cos(π t / 2S) + b(t)·sin(π t / 2S), and the whole
/// lasts a + b − 2 s.
///
/// The capture is compared as `SoundServerChecks.expectBitExactPlayback` compares it: every frame
/// with sound, in order, bit-exact, silent frames left out on both sides (an underrun on a loaded
/// machine makes the server play silence between two frames without losing or changing one).
@Suite(.serialized) struct CrossfadeCaptureTests {
    static let rate = 44100
    static let fadeSeconds = 2
    /// Frames the two tracks overlap: S, since the shorter track (6 s) lasts more than 2S.
    static let overlap = fadeSeconds * rate

    /// The pair: two sweeps in opposite directions, on albums "A" and "B"; their references
    /// (`Fixtures.referenceDecode`, s16le stereo) for the parts played alone.
    struct Pair {
        let a: String
        let b: String
        let referenceA: [UInt8]
        let referenceB: [UInt8]

        init(in run: MotetRun) throws {
            a = run.path("a.ogg")
            b = run.path("b.ogg")
            try Fixtures.oggVorbis(a, seconds: 6, synth: ["sine", "200-2000"], tags: .init(title: "A", artists: ["Motet"], album: "A"))
            try Fixtures.oggVorbis(b, seconds: 6, synth: ["sine", "3000-300"], tags: .init(title: "B", artists: ["Motet"], album: "B"))
            referenceA = try Fixtures.referenceDecode(a)
            referenceB = try Fixtures.referenceDecode(b)
        }

        var framesA: Int { referenceA.count / 4 }
        var framesB: Int { referenceB.count / 4 }
        /// Frames of the crossfaded whole: a + b − overlap.
        var crossfadedFrames: Int { framesA + framesB - CrossfadeCaptureTests.overlap }
    }

    /// Sample `i` (frame i / 2, channel i % 2) of s16le stereo bytes.
    private func sample(_ bytes: [UInt8], _ i: Int) -> Int {
        Int(Int16(bitPattern: UInt16(bytes[2 * i]) | UInt16(bytes[2 * i + 1]) << 8))
    }

    /// A float sample as a 16-bit device gets it: `lrintf(x * 32768)`, clamped (libvorbisfile's
    /// `ov_read`, which Motet's output matches bit for bit).
    private func int16(_ x: Float) -> Int { Int(Int16(clamping: lrintf(x * 32768))) }

    /// The pair to a WAV file, untimed, with `--crossfade 2`: its PCM bytes.
    private func crossfadedWAV(_ pair: Pair, run: MotetRun) throws -> [UInt8] {
        let out = run.path("crossfaded.wav")
        let r = try run.run(
            ["--output", "wav:\(out)", "--untimed", "--no-config", "--crossfade", "\(Self.fadeSeconds)", pair.a, pair.b])
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        #expect(wav.channels == 2 && wav.rate == Self.rate && wav.bits == 16)
        return wav.data
    }

    /// The WAV output is the first track alone, the overlap as the equal-power formula gives it from
    /// the two tracks' float samples (libvorbisfile's own, `Fixtures.vorbisFloatDecode`), then the
    /// second track alone, bit-exact; a + b − overlap frames in all. The overlap may differ from the
    /// formula by 1 in 32768 (the order of float operations), not more.
    @Test func theWAVOutputIsTheEqualPowerCrossfade() throws {
        let run = try MotetRun()
        let pair = try Pair(in: run)
        let data = try crossfadedWAV(pair, run: run)
        #expect(data.count / 4 == pair.crossfadedFrames, "frames: \(data.count / 4), a + b − overlap = \(pair.crossfadedFrames)")
        try #require(data.count / 4 == pair.crossfadedFrames)
        let alone = (pair.framesA - Self.overlap) * 4
        #expect(Array(data.prefix(alone)) == Array(pair.referenceA.prefix(alone)), "the first track before the overlap")
        #expect(
            Array(data.suffix(from: alone + Self.overlap * 4)) == Array(pair.referenceB.suffix(from: Self.overlap * 4)),
            "the second track after the overlap")
        let a = try Fixtures.vorbisFloatDecode(pair.a).samples, b = try Fixtures.vorbisFloatDecode(pair.b).samples
        try #require(a.count == 2 * pair.framesA && b.count == 2 * pair.framesB, "float decodes: \(a.count / 2) and \(b.count / 2) frames")
        var worst = (difference: 0, frame: 0)
        for frame in 0..<Self.overlap {
            let angle = Double.pi * Double(frame) / Double(2 * Self.overlap)
            for channel in 0..<2 {
                let mixed = a[2 * (pair.framesA - Self.overlap + frame) + channel] * Float(cos(angle)) + b[2 * frame + channel] * Float(sin(angle))
                let difference = abs(sample(data, alone / 2 + 2 * frame + channel) - int16(mixed))
                if difference > worst.difference { worst = (difference, frame) }
            }
        }
        #expect(worst.difference <= 1, "the overlap is a·cos + b·sin within 1: off by \(worst.difference) at its frame \(worst.frame)")
    }

    /// Played in real time through PulseAudio's pipe sink, the pair arrives as the WAV output has
    /// it, and the capture spans a + b − overlap: the overlap was played once, not one track after
    /// the other. An underrun adds silence inside the span: any difference is said on stdout, and
    /// only one of half the overlap or more (the tracks played one after the other would add all of
    /// it) fails.
    @Test func whatPulseAudioReceivesIsTheWAVOutputWithTheOverlap() throws {
        let run = try MotetRun()
        let pair = try Pair(in: run)
        let wav = try crossfadedWAV(pair, run: run)
        #expect(wav.count / 4 == pair.crossfadedFrames, "WAV output: \(wav.count / 4) frames, a + b − overlap = \(pair.crossfadedFrames)")
        let pulse = try PulseRig(rate: Self.rate)
        defer { pulse.stop() }
        let start = Stopwatch()
        let r = try run.run(
            ["--output", "pulse", "--no-config", "--status", "events", "--crossfade", "\(Self.fadeSeconds)", pair.a, pair.b],
            extraEnvironment: pulse.environment)
        let wall = start.seconds
        #expect(r.status == 0, "\(r.stderr)")
        let seconds = Double(pair.crossfadedFrames) / Double(Self.rate)
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
            "the capture spans \(span.count) frames, the WAV output \(wavSpan.count) (a + b − overlap = \(pair.crossfadedFrames); a + b = \(pair.framesA + pair.framesB))")
        if span.count != wavSpan.count {
            print("note: the capture spans \(span.count - wavSpan.count) frames more than the WAV output's sound (an underrun's silence)")
        }
    }
}
