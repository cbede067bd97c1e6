import Foundation
import Glibc
import MotetTestSupport
import Testing

/// The sound-server rigs capture what was played through a real-time pipe sink read by `cat`. A
/// loaded machine may hold the reader up; the sink keeps real time and drops what its FIFO cannot
/// take, so a test of the player failed for the rig's sake (issue 26: `channelsArriveInTheirPlaces`
/// lost 1,360 frames of 6 channels in a hunt's run). The rigs' FIFO holds 1.5 s of 8 channels.
@Suite(.serialized) struct CaptureRigTests {
    /// paplay plays 2 s of 8 channels while the reader is stopped for 0.6 s (423 KB of sound, six
    /// times a default pipe's 64 KiB): the capture still holds every frame, in order.
    func aHeldUpReaderLosesNothing(_ rig: some SoundServerRig, reader: SpawnedProcess?) throws {
        let directory = rig.directory
        let wav = directory + "/eight.wav"
        let raw = directory + "/eight.raw"
        let tones = (0..<8).flatMap { ["sine", "\(300 + 100 * $0)"] }
        try Fixtures.wav(wav, seconds: 2, rate: rig.rate, channels: 8, synth: tones)
        try Shell.check(["sox", wav, "-t", "raw", raw])
        let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let reader = try #require(reader)
        let player = try SpawnedProcess(["paplay", "-d", PulseRig.sinkName, wav], environment: rig.environment)
        Thread.sleep(forTimeInterval: 0.5)
        reader.signal(SIGSTOP)
        Thread.sleep(forTimeInterval: 0.6)
        reader.signal(SIGCONT)
        #expect(player.wait(timeout: 20), "paplay did not finish")
        var captured: [UInt8] = []
        _ = try Shell.waitUntil(timeout: 10) {
            captured = PulseRig.nonSilent(rig.capturedBytes(), frameBytes: rig.frameBytes)
            return captured.count >= expected.count
        }
        let firstDifference = zip(captured, expected).enumerated().first { $0.element.0 != $0.element.1 }.map { $0.offset / rig.frameBytes }
        #expect(
            captured.count == expected.count && firstDifference == nil,
            "captured \(captured.count / rig.frameBytes) frames of the \(expected.count / rig.frameBytes) played; first difference at frame \(firstDifference.map(String.init) ?? "none")")
    }

    @Test func pulseAudiosCaptureLosesNothingWhileItsReaderIsHeldUp() throws {
        let rig = try PulseRig(channels: 8)
        defer { rig.stop() }
        try aHeldUpReaderLosesNothing(rig, reader: rig.readerProcess)
    }

    @Test func pipeWiresCaptureLosesNothingWhileItsReaderIsHeldUp() throws {
        let rig = try PipeWireRig(channels: 8)
        defer { rig.stop() }
        try aHeldUpReaderLosesNothing(rig, reader: rig.readerProcess)
    }
}
