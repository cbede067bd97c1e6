import Foundation
import MotetTestSupport
import Testing

/// De-click fades and a skip's crossfade as a listener hears them (README, "Crossfade and
/// fades"): a probe plugin seeks, pauses, skips and stops at set times while the WAV output plays
/// in real time, and no step larger than the music's own comes out; a skip with `--crossfade`
/// sounds both tracks for the skip's fade.
@Suite struct FadeTests {
    /// Two 10 s tones of different albums, each half of full scale.
    func tones(_ run: MotetRun) throws -> [String] {
        let a = run.path("a.ogg"), b = run.path("b.ogg")
        try Fixtures.oggVorbis(a, seconds: 10, synth: ["sine", "440"], tags: .init(title: "Low", album: "One"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 10, synth: ["sine", "660"], tags: .init(title: "High", album: "Two"), serial: 2)
        return [a, b]
    }

    /// Plays `files` to a WAV file in real time while the probe sends `script` (MS/CODE/ARG;…).
    func play(_ run: MotetRun, _ files: [String], script: String, options: [String] = []) throws -> (ProcessResult, [Int16]) {
        let probe = try ProbePlugin.build(in: run.home)
        let out = run.path("out.wav")
        let r = try run.run(
            ["--output", "wav:\(out)", "--no-config", "--status", "events", "--plugin", "\(probe):out=\(run.path("probe.txt")),script=\(script)"]
                + options + files, timeout: 60)
        return (r, Self.leftChannel(try wavData(out).data))
    }

    /// The largest step from one sample to the next.
    static func largestStep(_ s: [Int16]) -> Int {
        zip(s, s.dropFirst()).map { abs(Int($1) - Int($0)) }.max() ?? 0
    }

    static func leftChannel(_ bytes: [UInt8]) -> [Int16] {
        bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }

    @Test func seekPauseSkipAndStopLeaveNoStepLargerThanTheMusicsOwn() throws {
        let run = try MotetRun()
        let files = try tones(run)
        // Seek +2 s, pause, play, next, stop, play, quit (plugin.h's command codes).
        let (r, out) = try play(run, files, script: "1500/10/2000000;3000/2/0;3500/1/0;4500/4/0;6000/6/0;6500/1/0;7500/13/0")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Low (ok, skipped)") && r.stdout.contains("Finished: High (ok, stopped)"), "\(r.stdout)")
        let own = try files.map { Self.largestStep(Self.leftChannel(try Fixtures.referenceDecode($0))) }.max() ?? 0
        // A cut between two points of a half-scale tone steps by up to 32768; a 5 ms fade adds
        // a few steps to the tone's own largest one.
        let largest = Self.largestStep(out)
        #expect(largest <= own + own / 10, "largest step \(largest), the tones' own \(own)")
        #expect(out.count > 44100 * 5, "\(out.count) frames")
    }

    @Test func aSkipWithCrossfadeSoundsBothTracksForASecond() throws {
        let run = try MotetRun()
        let files = try tones(run)
        let (r, out) = try play(run, files, script: "2000/4/0;5000/13/0", options: ["--crossfade", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        Self.expectCrossfadedSkip(r, from: "Low", into: "High", heard: out)
        let own = try files.map { Self.largestStep(Self.leftChannel(try Fixtures.referenceDecode($0))) }.reduce(0, +)
        #expect(Self.largestStep(out) <= own, "largest step \(Self.largestStep(out)), the tones' own together \(own)")
    }

    /// A skip from `from` (a 440 Hz tone) into `into` (660 Hz) crossfaded for a second, as a
    /// listener tells: `Finished: … skipped`, `Crossfade: 1 s` and `Playing: …` in that order,
    /// and both tones in 8 to 11 tenths of a second of what was `heard` (each above a tenth of
    /// full scale).
    static func expectCrossfadedSkip(
        _ r: ProcessResult, from: String, into: String, heard out: [Int16], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let finished = lines.firstIndex { $0.hasPrefix("Finished: \(from) ") && $0.hasSuffix("skipped)") }
        let crossfade = lines.firstIndex(of: "Crossfade: 1 s")
        let playing = lines.firstIndex { $0.hasPrefix("Playing: \(into)") }
        #expect(
            finished != nil && crossfade != nil && playing != nil && finished! < crossfade! && crossfade! < playing!,
            "\(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
        let blocks = stride(from: 0, to: out.count - 4410, by: 4410).map { start -> (Double, Double) in
            let block = out[start..<start + 4410].map { Double($0) / 32768 }
            return (Self.level(block, hz: 440), Self.level(block, hz: 660))
        }
        let both = blocks.filter { $0.0 > 0.05 && $0.1 > 0.05 }.count
        #expect(
            (8...11).contains(both), "\(both) tenths with both tones: \(blocks.map { String(format: "%.2f/%.2f", $0.0, $0.1) })",
            sourceLocation: sourceLocation)
    }

    /// Tenths of a second of `out` in which the 440 Hz tone sounds.
    static func tenthsOfLow(_ out: [Int16]) -> Int {
        stride(from: 0, to: out.count - 4410, by: 4410).filter { start in
            level(out[start..<start + 4410].map { Double($0) / 32768 }, hz: 440) > 0.05
        }.count
    }

    /// The amplitude of the `hz` component of `block` at 44.1 kHz (Goertzel).
    static func level(_ block: [Double], hz: Double) -> Double {
        let w = 2 * Double.pi * hz / 44100
        var s1 = 0.0, s2 = 0.0
        for x in block {
            let s = x + 2 * cos(w) * s1 - s2
            s2 = s1
            s1 = s
        }
        let power = s1 * s1 + s2 * s2 - 2 * cos(w) * s1 * s2
        return 2 * sqrt(max(0, power)) / Double(block.count)
    }
}
