import Foundation
import MotetTestSupport
import Testing

/// What a person at the keyboard checks, with the long PulseAudio buffer (#16): space silences
/// the music within 100 ms, and a seek is heard within 150 ms. Measured at the real-time pipe sink
/// of `PulseRig`, with the keys pressed through a real terminal.
///
/// The time of a key press is taken before `tmux send-keys` runs, so tmux and the terminal count
/// against us. The time a frame reaches the sink is when the capture (the FIFO's reader appends
/// at once) first holds it, sampled every millisecond. The pipe sink writes 1–2 blocks of 23 ms
/// ahead of its clock: what it wrote is what the server played, whether or not a card would
/// have sounded it yet.
/// Each test presses three times and asserts the median, so that one slice of a
/// busy machine's scheduling does not decide; all of them are printed.
@Suite(.serialized, .measuresTime) struct PulseLatencyTests {
    static let pauseBound = 0.100
    static let seekBound = 0.150

    /// motet in a terminal, playing `ogg` into `pulse`, once its sound reaches the capture.
    private func play(_ ogg: String, run: MotetRun, on pulse: PulseRig) throws -> PlayerTerminal {
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "pulse", "--no-config", ogg],
            environment: run.environment.merging(pulse.environment) { $1 })
        let sounding = try Shell.waitUntil(timeout: 15) {
            pulse.capturedBytes().contains { $0 != 0 }
        }
        guard sounding else { throw TestError.failed("no sound reached the sink: \(term.screen())") }
        return term
    }

    /// When each length of the capture was first seen: (monotonic seconds, frames).
    private final class CaptureClock: @unchecked Sendable {
        private let lock = NSLock()
        private var samples: [(time: Double, frames: Int)] = []
        private var running = true
        private var thread: Thread?

        init(_ pulse: PulseRig) {
            let t = Thread { [self] in
                while lock.withLock({ running }) {
                    let frames = pulse.capturedByteCount / pulse.frameBytes
                    let now = ProcessInfo.processInfo.systemUptime
                    lock.withLock { if samples.last?.frames != frames { samples.append((now, frames)) } }
                    usleep(1000)
                }
            }
            thread = t
            t.start()
        }

        func stop() { lock.withLock { running = false } }

        /// The frame count at `time`.
        func frames(at time: Double) -> Int { lock.withLock { samples.last { $0.time <= time }?.frames ?? 0 } }

        /// When frame `index` was first in the capture.
        func arrival(of index: Int) -> Double? { lock.withLock { samples.first { $0.frames > index }?.time } }
    }

    private func now() -> Double { ProcessInfo.processInfo.systemUptime }

    /// Left channel of frame `i` of the s16le capture.
    private func sample(_ bytes: [UInt8], _ i: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[4 * i]) | UInt16(bytes[4 * i + 1]) << 8) }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test func spaceSilencesTheMusicWithin100Milliseconds() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 20, synth: ["sine", "440"], tags: .init(title: "Tone"))
        let term = try play(ogg, run: run, on: pulse)
        defer { term.close() }
        let clock = CaptureClock(pulse)
        defer { clock.stop() }
        Thread.sleep(forTimeInterval: 1.0)
        var pressedAt: [Double] = []
        for _ in 0..<3 {
            pressedAt.append(now())
            try term.press(" ")
            Thread.sleep(forTimeInterval: 0.7)
            try term.press(" ")
            Thread.sleep(forTimeInterval: 1.0)
        }
        try term.press("q")
        let bytes = pulse.capturedBytes()
        // 10 ms of digital silence: the tone (a 440 Hz sine at half scale) is never that quiet.
        let run10ms = pulse.rate / 100
        var latencies: [Double] = []
        for time in pressedAt {
            var i = clock.frames(at: time)
            var zeros = 0
            while 4 * i + 3 < bytes.count, zeros < run10ms {
                zeros = sample(bytes, i) == 0 ? zeros + 1 : 0
                i += 1
            }
            let silent = try #require(clock.arrival(of: i - zeros), "no silence after the key")
            latencies.append(silent - time)
        }
        print("pause to silence at the sink: \(latencies.map { String(format: "%.0f ms", $0 * 1000) })")
        #expect(latencies.count == 3)
        #expect(median(latencies) <= Self.pauseBound, "pause to silence: \(latencies) s")
    }

    @Test func aSeekIsHeardWithin150Milliseconds() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let run = try MotetRun()
        // 5 s of a quiet tone, then 15 s of a loud one: a seek 5 s ahead from the quiet part lands
        // in the loud part, so the new audio is told apart by its level.
        let quiet = run.path("quiet.wav"), loud = run.path("loud.wav"), both = run.path("both.wav")
        try Shell.check(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", quiet, "synth", "5", "sine", "440", "vol", "0.05"])
        try Shell.check(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", loud, "synth", "15", "sine", "440", "vol", "0.8"])
        try Shell.check(["sox", quiet, loud, both])
        let ogg = run.path("levels.ogg")
        try Shell.check(["oggenc", "-Q", "-t", "Levels", both, "-o", ogg])
        let term = try play(ogg, run: run, on: pulse)
        defer { term.close() }
        let clock = CaptureClock(pulse)
        defer { clock.stop() }
        Thread.sleep(forTimeInterval: 0.5)
        // Right from the quiet part, Left back into it, three times: ~1 s → 6, 7 → 2, 2.8 → 7.8,
        // 8.6 → 3.6, 4.4 → 9.4.
        var pressedAt: [Double] = []
        for trial in 0..<3 {
            if trial > 0 {
                try term.pressKey("Left")
                Thread.sleep(forTimeInterval: 0.8)
            }
            pressedAt.append(now())
            try term.pressKey("Right")
            Thread.sleep(forTimeInterval: 0.8)
        }
        try term.press("q")
        let bytes = pulse.capturedBytes()
        // The quiet tone peaks at ~0.05 × 32767 ≈ 1640, the loud one at ~26000.
        let threshold: Int16 = 8000
        var latencies: [Double] = []
        for time in pressedAt {
            var i = clock.frames(at: time)
            while 4 * i + 3 < bytes.count, abs(Int(sample(bytes, i))) < Int(threshold) { i += 1 }
            let loud = try #require(clock.arrival(of: i), "the loud part was never heard after the seek")
            latencies.append(loud - time)
        }
        print("seek to the new audio at the sink: \(latencies.map { String(format: "%.0f ms", $0 * 1000) })")
        #expect(latencies.count == 3)
        #expect(median(latencies) <= Self.seekBound, "seek to audio: \(latencies) s")
    }
}
