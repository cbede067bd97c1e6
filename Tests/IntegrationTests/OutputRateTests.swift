import Foundation
import MotetTestSupport
import Testing

/// `--output-rate HZ` with the real binary and the WAV output: every track comes out at one rate,
/// so a pair of different rates crossfades in one file (the device is never reopened); a track
/// that already has the rate is not resampled (bit-exact); without the option nothing changes.
@Suite struct OutputRateTests {
    /// Frames a resampler hands out for `n` frames (`Resampler.outputFrames`: round to nearest,
    /// halves up), written out here: the tests see only the binary.
    static func resampled(_ n: Int, from: Int, to: Int) -> Int { (n * to + from / 2) / from }

    /// A 44.1 kHz track and a 48 kHz track of 2 s each, of different albums (so they crossfade).
    func twoRates(_ run: MotetRun) throws -> (a: String, b: String) {
        let a = run.path("cd.ogg"), b = run.path("dat.ogg")
        try Fixtures.oggVorbis(a, seconds: 2, rate: 44100, synth: ["sine", "440"], tags: .init(title: "CD", album: "A"), serial: 21)
        try Fixtures.oggVorbis(b, seconds: 2, rate: 48000, synth: ["sine", "300-900"], tags: .init(title: "DAT", album: "B"), serial: 22)
        return (a, b)
    }

    static let base = ["--untimed", "--no-config"]

    @Test func aPairOfDifferentRatesCrossfadesInOneFileAtTheOutputRate() throws {
        let run = try MotetRun()
        let (a, b) = try twoRates(run)
        let out = run.path("out.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(out)", "--output-rate", "48000", "--crossfade", "1", a, b])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: run.path("out.2.wav")), "the output was reopened")
        let wav = try wavData(out)
        #expect(wav.rate == 48000 && wav.channels == 2 && wav.bits == 16)
        let framesA = try Fixtures.referenceDecode(a).count / 4, referenceB = try Fixtures.referenceDecode(b)
        let framesB = referenceB.count / 4
        #expect(framesA == 88200 && framesB == 96000)
        let overlap = 48000
        let expected = Self.resampled(framesA, from: 44100, to: 48000) + framesB - overlap
        #expect(wav.data.count / 4 == expected, "frames: \(wav.data.count / 4), resampled a + b − overlap = \(expected)")
        // After the fade, the 48 kHz track alone, as it is: not resampled.
        let tail = 4 * (framesB - overlap)
        #expect(wav.data.count >= tail && Array(wav.data.suffix(tail)) == Array(referenceB.suffix(tail)))
    }

    @Test func aTrackResampledAloneHasTheRulesFrames() throws {
        let run = try MotetRun()
        let (a, _) = try twoRates(run)
        let out = run.path("out.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(out)", "--output-rate", "48000", a])
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        #expect(wav.rate == 48000)
        #expect(wav.data.count / 4 == Self.resampled(88200, from: 44100, to: 48000), "frames: \(wav.data.count / 4)")
    }

    @Test func aTrackThatHasTheRateIsBitExact() throws {
        let run = try MotetRun()
        let (_, b) = try twoRates(run)
        let out = run.path("out.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(out)", "--output-rate", "48000", b])
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        #expect(wav.rate == 48000)
        let reference = try Fixtures.referenceDecode(b)
        #expect(wav.data == reference, "frames: \(wav.data.count / 4) vs \(reference.count / 4)")
    }

    @Test func withoutTheOptionTheSecondRateGoesOnInASecondFile() throws {
        let run = try MotetRun()
        let (a, b) = try twoRates(run)
        let out = run.path("out.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(out)", "--crossfade", "1", a, b])
        #expect(r.status == 0, "\(r.stderr)")
        let first = try wavData(out), second = try wavData(run.path("out.2.wav"))
        #expect(first.rate == 44100 && second.rate == 48000)
        #expect(first.data.count / 4 == 88200 && second.data.count / 4 == 96000)
    }

    @Test func aStartPointIsResampledFromThere() throws {
        let run = try MotetRun()
        let (a, _) = try twoRates(run)
        let out = run.path("out.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(out)", "--output-rate", "48000", "--start", "1", a])
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try wavData(out).data.count / 4
        #expect(abs(frames - 48000) <= 3, "frames: \(frames)")
    }

    @Test func anOpusTrackIsResampledToo() throws {
        let run = try MotetRun()
        let path = run.path("opus.ogg")
        try Fixtures.opus(path, seconds: 1.5)
        let frames = try Fixtures.opusReferenceDecode(path).links.reduce(0) { $0 + $1.frames }
        let out = run.path("out.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(out)", "--output-rate", "44100", path])
        #expect(r.status == 0, "\(r.stderr)")
        let wav = try wavData(out)
        #expect(wav.rate == 44100)
        #expect(wav.data.count / 4 == Self.resampled(frames, from: 48000, to: 44100), "frames: \(wav.data.count / 4) of \(frames) at 48 kHz")
    }

    @Test(arguments: ["", "?nolength=1&noranges=1"])
    func aServedFileIsResampledAsTheLocalFileIs(query: String) throws {
        let run = try MotetRun()
        let (server, local) = try NetworkPlaybackTests.served(run, seconds: 2, title: "Served")
        let viaHTTP = run.path("http.wav"), viaFile = run.path("file.wav")
        let r = try run.run(Self.base + ["--output", "wav:\(viaHTTP)", "--output-rate", "48000", server.url("song.ogg" + query)], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let l = try run.run(Self.base + ["--output", "wav:\(viaFile)", "--output-rate", "48000", local])
        #expect(l.status == 0, "\(l.stderr)")
        let http = try wavData(viaHTTP), file = try wavData(viaFile)
        #expect(http.rate == 48000 && file.rate == 48000)
        #expect(file.data.count / 4 == 96000, "frames: \(file.data.count / 4)")
        #expect(http.data == file.data, "\(http.data.count) vs \(file.data.count) bytes")
    }
}
