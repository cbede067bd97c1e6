import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Testing

@Suite struct OutputFactoryTests {
    let notices = NoticeLog()

    func make(_ choice: OutputChoice, untimed: Bool = true) throws -> any AudioOutput {
        try OutputFactory.make(choice, untimed: untimed, clientName: "motet-test") { [notices] in notices.add($0) }
    }

    @Test func nullUntimedTakesNoTime() throws {
        let sink = try make(.null)
        #expect(sink.name == "null")
        try sink.open(AudioFormat(sampleRate: 48000, channels: 2))
        let driver = DeviceDriver(sink, channels: 2)
        let elapsed = try seconds { try driver.play([Float](repeating: 0, count: 48000 * 2 * 5)) }
        #expect(elapsed < 0.2)
        #expect(driver.heard == 48000 * 5)
        #expect(notices.all.isEmpty)
    }

    @Test func wavWritesTheFileItWasGiven() throws {
        let dir = try Paths.temporaryDirectory("motet-factory")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sink = try make(.wav(path: dir + "/out.wav", float: true))
        #expect(sink.name == "wav")
        try playAll(sink, [Float](repeating: 0.5, count: 441 * 2), format: AudioFormat(sampleRate: 44100, channels: 2))
        sink.close()
        let w = try ParsedWAV(dir + "/out.wav")
        #expect(w.subFormat == 3 && w.dataSize == 441 * 8)
    }

    @Test func alsaOpensTheNamedDevice() throws {
        let rig = try ALSARig()
        defer { rig.stop() }
        let sink = try make(.alsa(device: rig.inlineDevice))
        #expect(sink.name == "alsa")
        try playAll(sink, [Float](repeating: 0.5, count: 4410 * 2), format: AudioFormat(sampleRate: 44100, channels: 2))
        sink.close()
        #expect(rig.capturedBytes().prefix(4) == [0x00, 0x40, 0x00, 0x40])
    }

    @Test func autoAlwaysFindsAnOutputAndSaysWhenItIsNull() throws {
        let sink = try make(.auto, untimed: true)
        #expect(["pulse", "alsa", "null"].contains(sink.name))
        if sink.name == "null" {
            // No sound here (as on a headless CI machine): one line that says why.
            #expect(notices.all.count == 1)
            let line = notices.all.first ?? ""
            #expect(line == OutputFactory.noSoundNotice)
        } else {
            #expect(notices.all.isEmpty)
        }
        sink.close()
    }

    @Test func theNoSoundNoticeNamesTheFixInOneLineOf80Columns() {
        let line = OutputFactory.noSoundNotice
        #expect(line.count < 80 && !line.contains("\n"))
        #expect(line.contains("start PulseAudio or PipeWire"))
        #expect(!line.contains("context") && !line.contains("null output"))
    }

    @Test func anUnusableChoiceThrowsInsteadOfFallingBack() throws {
        #expect(throws: OutputError.self) { try make(.alsa(device: "hw:97")) }
        #expect(throws: OutputError.self) { try make(.wav(path: "/nonexistent-motet-dir/x.wav", float: false)) }
        #expect(notices.all.isEmpty)
    }
}
