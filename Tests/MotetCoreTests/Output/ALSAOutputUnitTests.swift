import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Testing

@Suite struct ALSAOutputUnitTests {
    @Test func aSweepThroughAFilePCMIsBitExact() throws {
        let rig = try ALSARig()
        defer { rig.stop() }
        let signal = try TestSignal(seconds: 1)
        let sink = try ALSAOutput(device: rig.inlineDevice)
        try sink.open(signal.format)
        let driver = DeviceDriver(sink, channels: 2)
        #expect(try driver.play(signal.floats) == signal.frames)
        #expect(sink.drain())
        #expect(driver.heard == Int64(signal.frames))
        sink.close()
        let captured = rig.capturedBytes()
        #expect(captured.count >= signal.bytes.count)
        #expect(difference(Array(captured.prefix(signal.bytes.count)), signal.bytes) == nil)
        // ALSA pads the end to a whole period with silence, nothing else.
        #expect(captured.dropFirst(signal.bytes.count).allSatisfy { $0 == 0 })
        #expect(captured.count - signal.bytes.count < 44100 * 4 / 2)
    }

    @Test func fivePointOneIsReorderedToALSAChannelOrder() throws {
        let rig = try ALSARig()
        defer { rig.stop() }
        // Channel c of every frame (WAV order FL FR FC LFE BL BR) carries the value c + 1.
        let frames = 4096
        let floats = (0..<(frames * 6)).map { Float($0 % 6 + 1) / 32768 }
        let sink = try ALSAOutput(device: rig.inlineDevice)
        try playAll(sink, floats, format: AudioFormat(sampleRate: 48000, channels: 6))
        sink.close()
        let captured = rig.capturedBytes()
        #expect(captured.count >= frames * 12)
        // ALSA's default 5.1 order is FL FR RL RR FC LFE.
        let firstFrame = (0..<6).map { captured.u16($0 * 2) }
        #expect(firstFrame == [1, 2, 5, 6, 3, 4])
    }

    @Test func aFormatChangeReopensTheDeviceAndKeepsEveryFrame() throws {
        let rig = try ALSARig()
        defer { rig.stop() }
        let first = try TestSignal(seconds: 0.3)
        let second = try TestSignal(seconds: 0.3, rate: 48000, synth: ["sine", "300-900"])
        let sink = try ALSAOutput(device: rig.inlineDevice)
        try sink.open(first.format)
        #expect(try DeviceDriver(sink, channels: 2).play(first.floats) == first.frames)
        try sink.open(second.format)  // plays out the first stream, then reconfigures
        #expect(sink.state().delayFrames == 0)
        #expect(try DeviceDriver(sink, channels: 2).play(second.floats) == second.frames)
        sink.drain()
        sink.close()
        // The file PCM pads each stream's end with silence: both signals, in order, intact.
        let captured = rig.capturedBytes()
        #expect(difference(Array(captured.prefix(first.bytes.count)), first.bytes) == nil)
        let rest = Array(captured.dropFirst(first.bytes.count))
        guard let start = rest.firstIndex(where: { $0 != 0 }) else {
            Issue.record("the second signal is missing")
            return
        }
        let aligned = start / 4 * 4
        let expectedStart = second.bytes.firstIndex(where: { $0 != 0 })! / 4 * 4
        #expect(
            difference(
                Array(rest[aligned..<min(rest.count, aligned + second.bytes.count - expectedStart)]),
                Array(second.bytes[expectedStart...])) == nil)
    }

    @Test func aMissingDeviceFailsWithOneClearLine() throws {
        #expect {
            _ = try ALSAOutput(device: "hw:97")
        } throws: { error in
            let text = (error as? OutputError)?.description ?? ""
            return text.contains("hw:97") && !text.contains("\n")
        }
    }
}
