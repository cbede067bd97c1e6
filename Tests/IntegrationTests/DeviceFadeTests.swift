import Foundation
import MotetTestSupport
import Testing

/// De-click fades as a sound server or an ALSA device plays them (README, "Crossfade and fades"):
/// the probe plugin seeks, pauses, skips and stops at set times, as in `FadeTests`, while Motet
/// plays into a server's real-time capture sink or the real-time ALSA test device of
/// `ALSAFaultRig`, and no step larger than the music's own comes out. A cut rewrites the server's
/// queue (`PulseOutput.cut`) or rewinds the device's buffer (`ALSAOutput.cut`) from where the
/// sound will stop, so the fade out starts at the very sample played next.
///
/// The fade out must reach the server within the cut's margin (40 ms): a measurement of time,
/// run alone and not under a sanitizer (`measuresTime`, Tests/run-suite.sh's TIMING_SUITES).
/// The tests run side by side: each player mostly waits on its device's clock.
@Suite(.measuresTime) struct DeviceFadeTests {
    @Test func aCutOnPulseAudioLeavesNoStepLargerThanTheMusicsOwn() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        try Self.expectNoStep(output: "pulse", environment: pulse.environment, label: "PulseRig", captured: pulse.capturedBytes)
    }

    @Test func aCutOnPipeWireLeavesNoStepLargerThanTheMusicsOwn() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        try Self.expectNoStep(output: "pulse", environment: pipewire.environment, label: "PipeWireRig", captured: pipewire.capturedBytes)
    }

    /// Each of the script's five cuts (seek, pause, next, stop, stop) rewinds the device's buffer
    /// (the device logs `rewind`) instead of dropping it: the cut is sample-exact, not a guess
    /// from the delay. After the fade of a pause or a stop the device runs dry, which is no
    /// glitch to tell the user about.
    @Test func aCutOnALSALeavesNoStepLargerThanTheMusicsOwn() throws {
        let rig = try ALSAFaultRig(.init())
        defer { rig.stop() }
        let r = try Self.expectNoStep(output: "alsa", environment: rig.environment, label: "ALSAFaultRig", captured: rig.capturedBytes)
        #expect(!(r.stdout + r.stderr).contains("ran dry"), "\(r.stdout)\n\(r.stderr)")
        let events = rig.events()
        let rewinds = events.filter { $0.name == "rewind" }
        print("DeviceFade ALSAFaultRig: rewinds \(rewinds)")
        #expect(rewinds.count == 5, "\(events.filter { $0.name != "write" })")
    }

    /// Seek +2 s, pause, play, next, stop, play, as `FadeTests` (plugin.h's command codes), then
    /// stop before quitting: a quit while playing is no cut (it closes the stream mid-wave).
    /// `output` (`--output`) with `environment` plays; `captured` is what the device played.
    /// Returns the run, for what a device's own test checks in its output.
    @discardableResult
    static func expectNoStep(
        output: String, environment: [String: String], label: String, captured capturedBytes: () -> [UInt8]
    ) throws -> ProcessResult {
        let run = try MotetRun()
        let a = run.path("a.ogg"), b = run.path("b.ogg")
        try Fixtures.oggVorbis(a, seconds: 10, synth: ["sine", "440"], tags: .init(title: "Low", album: "One"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 10, synth: ["sine", "660"], tags: .init(title: "High", album: "Two"), serial: 2)
        let probe = try ProbePlugin.build(in: run.home)
        let script = "1200/10/2000000;2000/2/0;2400/1/0;3200/4/0;4000/6/0;4400/1/0;5200/6/0;5600/13/0"
        let r = try run.run(
            ["--output", output, "--no-config", "--status", "events", "--plugin", "\(probe):out=\(run.path("probe.txt")),script=\(script)", a, b],
            extraEnvironment: environment, timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Low (ok, skipped)") && r.stdout.contains("Finished: High (ok, stopped)"), "\(r.stdout)")
        Thread.sleep(forTimeInterval: 1)
        let captured = FadeTests.leftChannel(capturedBytes())
        let own = try [a, b].map { FadeTests.largestStep(FadeTests.leftChannel(try Fixtures.referenceDecode($0))) }.max() ?? 0
        let steps = zip(captured, captured.dropFirst()).enumerated().map { ($0.offset, abs(Int($0.element.1) - Int($0.element.0))) }
        let largest = steps.map(\.1).max() ?? 0
        let over = steps.filter { $0.1 > own + own / 10 }.prefix(20).map { "\($0.1)@\($0.0)" }
        print("DeviceFade \(label): largest step \(largest), the tones' own \(own), steps above: \(over)")
        #expect(largest <= own + own / 10, "largest step \(largest), the tones' own \(own); above it: \(over)")
        #expect(captured.filter { $0 != 0 }.count > 44100 * 3, "\(captured.count) frames")  // 4.4 s are played
        return r
    }
}
