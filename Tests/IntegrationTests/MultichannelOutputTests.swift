import Foundation
import MotetTestSupport
import Testing

/// Channel counts that do not divide the player's sample ring (3 and 6) put frames across the
/// ring's wrap every half second or so: the WAV must still be every frame, bit-exact, in WAV
/// channel order.
///
/// The reference is `oggdec -R` (Vorbis order) reordered by Vorbis I §4.3.9. Not oggdec's own WAV:
/// vorbis-tools 1.4.2 applies the inverse permutation for 5.1 and writes FL FR C RR LFE RL
/// (3 channels come out right only because that permutation is its own inverse).
@Suite struct MultichannelOutputTests {
    /// `oggdec -R` of `ogg` (16-bit, Vorbis order), reordered to WAV order.
    private func referenceInWAVOrder(_ ogg: String, channels: Int) throws -> [UInt8] {
        let raw = try Fixtures.referenceDecode(ogg)
        let vorbisIndexOfWAV = channels == 3 ? [0, 2, 1] : [0, 2, 1, 5, 3, 4]
        var out = [UInt8](repeating: 0, count: raw.count)
        for frame in 0..<raw.count / (2 * channels) {
            for c in 0..<channels {
                let to = (frame * channels + c) * 2, from = (frame * channels + vorbisIndexOfWAV[c]) * 2
                out[to] = raw[from]
                out[to + 1] = raw[from + 1]
            }
        }
        return out
    }

    @Test(arguments: [(3, 44100, ["sine", "220", "sine", "330", "sine", "440"]),
                      (6, 48000, ["sine", "100", "sine", "200", "sine", "300", "sine", "400", "sine", "500", "sine", "600"])])
    func everyFrameInWAVOrder(channels: Int, rate: Int, synth: [String]) throws {
        let run = try MotetRun()
        let ogg = run.path("surround\(channels).ogg")
        try Fixtures.oggVorbis(ogg, seconds: 2.2, rate: rate, channels: channels, synth: synth)
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", ogg])
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        let reference = try referenceInWAVOrder(ogg, channels: channels)
        #expect(wav.channels == channels && wav.rate == rate && wav.bits == 16)
        #expect(wav.data.count == reference.count, "frames: \(wav.data.count / (2 * channels)) vs \(reference.count / (2 * channels))")
        if wav.data != reference {
            let first = zip(wav.data, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            Issue.record("first differing byte at \(first) (frame \(first / (2 * channels)))")
        }
    }
}
