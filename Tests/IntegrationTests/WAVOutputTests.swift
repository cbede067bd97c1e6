import Foundation
import MotetTestSupport
import Testing

/// What `--output wav:PATH --untimed` writes is exactly what libvorbisfile decodes: every frame of
/// every file, in order, with not one frame of gap or overlap between tracks.
@Suite struct WAVOutputTests {
    @Test func aSingleFileIsBitExactAgainstTheReferenceDecoder() throws {
        let run = try MotetRun()
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 2.3, synth: ["sine", "200-4000"], tags: .init(title: "Sweep"))
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", ogg])
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        let reference = try Fixtures.referenceDecode(ogg)
        #expect(wav.channels == 2 && wav.rate == 44100 && wav.bits == 16)
        #expect(wav.data.count == reference.count)
        #expect(wav.data == reference)
    }

    @Test func aFileWithoutTheEndOfStreamFlagFinishesOkAndBitExact() throws {
        let run = try MotetRun()
        let ogg = run.path("whole.ogg"), eosless = run.path("no-eos.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 2, synth: ["pinknoise"], tags: .init(title: "Open End"))
        try Fixtures.withoutEndOfStream(of: ogg, to: eosless)
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", eosless])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Open End (ok, completed)"), "\(r.stdout)")
        #expect(!r.stderr.contains("ends early"), "\(r.stderr)")
        #expect(try wavData(out).data == Fixtures.referenceDecode(ogg))
    }

    @Test func tracksOfTheSameFormatJoinWithoutAGapOrOverlap() throws {
        let run = try MotetRun()
        var reference: [UInt8] = []
        var files: [String] = []
        for (i, seconds) in [0.05, 1.7, 0.9].enumerated() {
            let f = run.path("part\(i).ogg")
            try Fixtures.oggVorbis(f, seconds: seconds, synth: ["sine", "\(300 + 200 * i)-\(900 + 300 * i)"], serial: 100 + i)
            files.append(f)
            reference += try Fixtures.referenceDecode(f)
        }
        let out = run.path("gapless.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        #expect(wav.data.count == reference.count, "frames: \(wav.data.count / 4) vs \(reference.count / 4)")
        if wav.data != reference {
            let first = zip(wav.data, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            Issue.record("first differing byte at \(first) (frame \(first / 4))")
        }
    }

    @Test func aChainedFileWithATinyFirstLinkLosesNoFrame() throws {
        let run = try MotetRun()
        let a = run.path("a.ogg"), b = run.path("b.ogg"), chained = run.path("chained.ogg")
        try Fixtures.oggVorbis(a, seconds: 0.01, tags: .init(title: "Tiny"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 1.2, synth: ["sine", "100-3000"], tags: .init(title: "Long"), serial: 2)
        try Fixtures.chain([a, b], into: chained)
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", chained])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try Fixtures.referenceDecode(a) + Fixtures.referenceDecode(b)
        let wav = try wavData(out)
        #expect(wav.data.count == expected.count, "frames: \(wav.data.count / 4) vs \(expected.count / 4)")
        #expect(wav.data == expected)
    }

    @Test func aFormatChangeContinuesInANumberedFileAndKeepsEveryFrame() throws {
        let run = try MotetRun()
        let a = run.path("stereo.ogg"), b = run.path("mono48.ogg")
        try Fixtures.oggVorbis(a, seconds: 0.8, serial: 1)
        try Fixtures.oggVorbis(b, seconds: 0.6, rate: 48000, channels: 1, serial: 2)
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", a, b])
        #expect(r.status == 0, "\(r.stderr)")
        let first = try wavData(out)
        let second = try wavData(run.path("out.2.wav"))
        #expect(first.channels == 2 && first.rate == 44100)
        #expect(second.channels == 1 && second.rate == 48000)
        #expect(first.data == (try Fixtures.referenceDecode(a)))
        #expect(second.data == (try Fixtures.referenceDecode(b)))
    }

    @Test func volumeScalesTheSamples() throws {
        let run = try MotetRun()
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 0.5)
        let out = run.path("half.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--volume", "50", ogg])
        #expect(r.status == 0, "\(r.stderr)")
        func peak(_ d: [UInt8]) -> Int {
            stride(from: 0, to: d.count - 1, by: 2).map { abs(Int(Int16(bitPattern: UInt16(d[$0]) | UInt16(d[$0 + 1]) << 8))) }.max() ?? 0
        }
        let full = peak(try Fixtures.referenceDecode(ogg))
        let half = peak(try wavData(out).data)
        #expect(abs(half * 2 - full) <= 2, "peak \(half) at 50% vs \(full) at 100%")
    }
}
