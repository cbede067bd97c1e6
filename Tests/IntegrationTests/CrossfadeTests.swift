import Foundation
import MotetTestSupport
import Testing

/// `--crossfade` as a listener checks it: the WAV output of a pair is the equal-power formula of
/// README "Crossfade", computed here from libvorbisfile's own float decodes of the two files,
/// within one 16-bit step, and exactly `a + b − overlap` frames long; an album in order stays
/// gapless and bit-exact.
@Suite struct CrossfadeTests {
    /// Two tracks of different albums, and the WAV output of playing them with `options`.
    struct Pair {
        var run: MotetRun
        var files: [String]
        var result: ProcessResult
        var output: [Int16]
    }

    /// `untimed`: as fast as it decodes (the default), else in real time.
    func play(
        _ tracks: [(seconds: Double, synth: [String], tags: Fixtures.Tags)], rate: Int = 44100, options: [String], untimed: Bool = true
    ) throws -> Pair {
        let run = try MotetRun()
        var files: [String] = []
        for (i, t) in tracks.enumerated() {
            let f = run.path("track\(i).ogg")
            try Fixtures.oggVorbis(f, seconds: t.seconds, rate: rate, synth: t.synth, tags: t.tags, serial: 10 + i)
            files.append(f)
        }
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--no-config", "--status", "events"] + (untimed ? ["--untimed"] : []) + options + files)
        let data = try wavData(out).data
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
        return Pair(run: run, files: files, result: r, output: samples)
    }

    /// The formula: `a` with its last `overlap` frames mixed into `b`'s first, as 16-bit steps.
    static func expected(_ a: [Float], _ b: [Float], channels: Int, overlap: Int) -> [Double] {
        let framesA = a.count / channels
        var out = a[0..<(framesA - overlap) * channels].map { Double($0) * 32768 }
        for t in 0..<overlap {
            let angle = Double.pi * Double(t) / Double(2 * overlap)
            for c in 0..<channels {
                let x = Double(a[(framesA - overlap + t) * channels + c]) * cos(angle) + Double(b[t * channels + c]) * sin(angle)
                out.append(x * 32768)
            }
        }
        out += b[overlap * channels..<b.count].map { Double($0) * 32768 }
        return out
    }

    /// The largest difference, in 16-bit steps, and where it is (in frames).
    static func largestDifference(_ output: [Int16], _ expected: [Double], channels: Int) -> (steps: Double, frame: Int) {
        var worst = (steps: 0.0, frame: -1)
        for (i, (o, e)) in zip(output, expected).enumerated() {
            let clamped = min(32767, max(-32768, e))
            let d = abs(Double(o) - clamped)
            if d > worst.steps { worst = (d, i / channels) }
        }
        return worst
    }

    static let a = (seconds: 3.0, synth: ["sine", "440"], tags: Fixtures.Tags(title: "Outgoing", artists: ["Ann"], album: "First"))
    static let b = (seconds: 2.5, synth: ["sine", "300-3000"], tags: Fixtures.Tags(title: "Incoming", artists: ["Ann"], album: "Second"))

    @Test func aPairIsTheEqualPowerFormulaAndOverlapsByTheFade() throws {
        let pair = try play([Self.a, Self.b], options: ["--crossfade", "1"])
        #expect(pair.result.status == 0, "\(pair.result.stderr)")
        let a = try Fixtures.vorbisFloatDecode(pair.files[0]), b = try Fixtures.vorbisFloatDecode(pair.files[1])
        let overlap = 44100
        let expected = Self.expected(a.samples, b.samples, channels: 2, overlap: overlap)
        #expect(pair.output.count == expected.count, "frames: \(pair.output.count / 2), a + b − overlap = \(expected.count / 2)")
        let worst = Self.largestDifference(pair.output, expected, channels: 2)
        #expect(worst.steps <= 1, "\(worst.steps) steps off at frame \(worst.frame)")
        // Delegates see the outgoing track finish in the middle, with its whole fade heard.
        let lines = pair.result.stdout.split(separator: "\n").map(String.init)
        let finished = lines.firstIndex { $0.hasPrefix("Finished: Outgoing (ok, completed)") }
        let started = lines.firstIndex { $0.contains("Incoming") }
        #expect(finished != nil && started != nil && finished! < started!, "\(pair.result.stdout)")
    }

    @Test func delegatesSeeOneTrackAtATimeTheOutgoingOneHeardWholeTheIncomingOneHalfFaded() throws {
        let run = try MotetRun()
        let probe = try ProbePlugin.build(in: run.home)
        let log = run.path("probe.txt")
        // In real time: untimed, the heard position runs ahead by seconds while the control
        // thread publishes (under ThreadSanitizer by half a second).
        let pair = try play([Self.a, Self.b], options: ["--crossfade", "1", "--plugin", "\(probe):out=\(log)"], untimed: false)
        #expect(pair.result.status == 0, "\(pair.result.stderr)")
        let lines = ProbePlugin.lines(log)
        func field(_ line: String, _ name: String) -> Int64? {
            line.split(separator: " ").first { $0.hasPrefix(name + "=") }.flatMap { Int64($0.dropFirst(name.count + 1)) }
        }
        // The outgoing track finished with all of its 3 s heard, its fade's second half included.
        let finished = try #require(lines.first { $0.hasPrefix("finished-track") && $0.contains("title=Outgoing") })
        #expect(abs((field(finished, "heard") ?? 0) - 3_000_000) < 30_000, "\(finished)")
        #expect(abs((field(finished, "position") ?? 0) - 3_000_000) < 30_000, "\(finished)")
        // Then the incoming one started, half the fade already heard.
        let order = lines.firstIndex(of: finished)!
        let started = try #require(lines.firstIndex { $0.hasPrefix("started") && $0.contains("title=Incoming") })
        #expect(order < started)
        // At once half the fade: never from zero (what it says a moment later depends on how
        // fast the control thread is).
        let firstNowPlaying = try #require(lines[started...].first { $0.hasPrefix("np ") && $0.contains("title=Incoming") })
        #expect((480_000...1_500_000).contains(field(firstNowPlaying, "elapsed") ?? 0), "\(firstNowPlaying)")
    }

    @Test func aShortTrackFadesOverHalfItsLength() throws {
        let short = (seconds: 1.2, synth: ["sine", "200-900"], tags: Fixtures.Tags(title: "Short", album: "Third"))
        let pair = try play([Self.a, short], options: ["--crossfade", "2"])
        #expect(pair.result.status == 0, "\(pair.result.stderr)")
        let a = try Fixtures.vorbisFloatDecode(pair.files[0]), b = try Fixtures.vorbisFloatDecode(pair.files[1])
        let overlap = min(88200, a.samples.count / 2 / 2, b.samples.count / 2 / 2)
        #expect(overlap < 88200)
        let expected = Self.expected(a.samples, b.samples, channels: 2, overlap: overlap)
        #expect(pair.output.count == expected.count, "frames: \(pair.output.count / 2) vs \(expected.count / 2)")
        let worst = Self.largestDifference(pair.output, expected, channels: 2)
        #expect(worst.steps <= 1, "\(worst.steps) steps off at frame \(worst.frame)")
    }

    @Test func anAlbumInOrderStaysGaplessAndBitExactUnlessAskedOtherwise() throws {
        // One album by its ALBUMARTIST, though each track has its own ARTIST.
        let first = (seconds: 2.0, synth: ["sine", "500"], tags: Fixtures.Tags(title: "One", artists: ["X"], album: "Split", extra: ["ALBUMARTIST=Both"]))
        let second = (seconds: 2.0, synth: ["sine", "700"], tags: Fixtures.Tags(title: "Two", artists: ["Y"], album: "Split", extra: ["ALBUMARTIST=Both"]))
        let gapless = try play([first, second], options: ["--crossfade", "1"])
        #expect(gapless.result.status == 0, "\(gapless.result.stderr)")
        let reference = try gapless.files.flatMap { try Fixtures.referenceDecode($0) }
        let bytes = gapless.output.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        #expect(bytes == reference, "frames: \(bytes.count / 4) vs \(reference.count / 4)")

        let crossed = try play([first, second], options: ["--crossfade", "1", "--crossfade-albums", "yes"])
        #expect(crossed.output.count == reference.count / 2 - 2 * 44100, "frames: \(crossed.output.count / 2)")
    }

    @Test func untaggedTracksOfOneDirectoryAreOneAlbum() throws {
        let plain = (seconds: 1.5, synth: ["sine", "600"], tags: Fixtures.Tags())
        let pair = try play([plain, plain], options: ["--crossfade", "1"])
        let reference = try pair.files.flatMap { try Fixtures.referenceDecode($0) }
        #expect(pair.output.count == reference.count / 2, "frames: \(pair.output.count / 2) vs \(reference.count / 4)")
    }

    @Test func differentRatesFadeOutAndInWithoutOverlapping() throws {
        let run = try MotetRun()
        let a = run.path("a.ogg"), b = run.path("b.ogg")
        try Fixtures.oggVorbis(a, seconds: 2, rate: 44100, synth: ["sine", "440"], tags: .init(title: "CD", album: "A"))
        try Fixtures.oggVorbis(b, seconds: 2, rate: 48000, synth: ["sine", "440"], tags: .init(title: "DAT", album: "B"))
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--crossfade", "1", a, b])
        #expect(r.status == 0, "\(r.stderr)")
        // The format changed: the WAV output goes on in a second file (`out.2.wav`).
        let first = try wavData(out), second = try wavData(run.path("out.2.wav"))
        let refA = try Fixtures.vorbisFloatDecode(a), refB = try Fixtures.vorbisFloatDecode(b)
        #expect(first.data.count / 4 == refA.samples.count / 2 && second.data.count / 4 == refB.samples.count / 2)
        func samples(_ d: [UInt8]) -> [Int16] { d.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }
        let outA = samples(first.data), outB = samples(second.data)
        // The last second of the first fades out to nothing; the first second of the second fades in.
        let fadeA = 44100, fadeB = 48000
        var worst = 0.0
        for t in 0..<fadeA {
            let e = Double(refA.samples[(refA.samples.count / 2 - fadeA + t) * 2]) * cos(Double.pi * Double(t) / Double(2 * fadeA)) * 32768
            worst = max(worst, abs(Double(outA[outA.count - 2 * fadeA + 2 * t]) - e))
        }
        for t in 0..<fadeB {
            let e = Double(refB.samples[t * 2]) * sin(Double.pi * Double(t) / Double(2 * fadeB)) * 32768
            worst = max(worst, abs(Double(outB[2 * t]) - e))
        }
        #expect(worst <= 1, "\(worst) steps off the fades")
        #expect(abs(Int(outA[outA.count - 2])) <= 1 && abs(Int(outB[0])) <= 1)
    }
}
