import Foundation
import MotetTestSupport
import Testing

@testable import MotetOutput

/// What a stop (Ctrl-Z, a debugger, a suspended VM) does to the heard position on a real,
/// private PulseAudio server (PulseRig). While the process is stopped the server plays what it
/// holds and runs dry; libpulse's interpolated clock, asked after the stop, has run on through the
/// whole stop. The order in which the player's threads run again after SIGCONT is up to the
/// scheduler; the test makes the unlucky one certain: it holds the main loop's lock through the
/// "stop", so that the sink thread (here, the test) looks at the clock before the main loop has
/// read the server's underflow notice.
@Suite(.serialized) struct PulseOutputStopTests {
    @Test func afterAStopTheHeardClockGoesOnFromWhereTheServerRanDry() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let device = try PulseOutput(clientName: "motet-test", server: rig.serverAddress, device: PulseRig.sinkName)
        defer { device.close() }
        // More than the server waits for before it starts (2.1 s), less than its buffer.
        let tone = try TestSignal(seconds: 2.5, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        #expect(try driver.play(tone.floats, giveUp: 5) == tone.frames)
        driver.idle(1)
        // The stop: the server runs dry 1.5 s into it, and it lasts 3.5 s more. The first look
        // after it comes before the underflow notice is read.
        device.withLock {
            Thread.sleep(forTimeInterval: 5)
            _ = device.state()
        }
        driver.idle(0.2)
        let dry = Double(driver.heard) / 44100
        #expect(abs(dry - 2.5) < 0.1, "heard \(dry) s of 2.5 s after the server ran dry")
        // Playing again: the server starts once it has 2.1 s, at once.
        #expect(try driver.play(tone.floats, giveUp: 5) == tone.frames)
        let restart = Stopwatch()
        var samples: [(at: Double, heard: Double, playing: Bool)] = []
        driver.idle(0.5)
        for _ in 0..<3 {
            let state = device.state()
            samples.append((restart.seconds, Double(driver.written - state.delayFrames) / 44100, state.playing))
            driver.idle(0.4)
        }
        let seen = samples.map { String(format: "%.2f s heard at %.2f s%@", $0.heard, $0.at, $0.playing ? "" : " (not playing)") }
            .joined(separator: ", ")
        // What was heard: the first 2.5 s, then the new audio from its start, less the sink's
        // latency (under 0.45 s, as in PulseOutputUnitTests). Before the fix the clock stood at
        // where it had interpolated to through the stop (6 s): ahead of all that was written.
        for s in samples {
            #expect(s.playing, "the device did not say it plays after the restart: \(seen)")
            #expect(s.heard <= 2.5 + s.at + 0.05 && s.heard >= 2.5 + s.at - 0.5, "\(seen)")
        }
        let rates = zip(samples, samples.dropFirst()).map { ($1.heard - $0.heard) / ($1.at - $0.at) }
        #expect(rates.allSatisfy { $0 > 0.85 && $0 < 1.15 }, "the heard clock ran at \(rates)× real time: \(seen)")
    }
}
