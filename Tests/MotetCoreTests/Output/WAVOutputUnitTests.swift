import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Synchronization
import Testing

@Suite final class WAVOutputUnitTests {
    let dir: String
    let notices = NoticeLog()

    init() throws { dir = try Paths.temporaryDirectory("motet-wav") }
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    func sink(_ name: String, float: Bool = false) throws -> WAVOutput {
        try WAVOutput(path: dir + "/" + name, float: float, untimed: true) { [notices] line in notices.add(line) }
    }

    @Test func stereoIsPlainPCMWithTheSamplesOvReadWouldGive() throws {
        let signal = try TestSignal(seconds: 1)
        let wav = try sink("song.wav")
        try wav.open(signal.format)
        #expect(try DeviceDriver(wav, channels: 2).play(signal.floats) == signal.frames)
        wav.close()
        let w = try ParsedWAV(dir + "/song.wav")
        #expect(w.formatTag == 1)
        #expect(w.channels == 2 && w.sampleRate == 44100 && w.bits == 16)
        #expect(w.blockAlign == 4 && w.byteRate == 44100 * 4)
        #expect(w.dataOffset == 44)
        #expect(Int(w.dataSize) == signal.frames * 4)
        #expect(difference(w.data, signal.bytes, frameBytes: w.blockAlign) == nil)
        #expect(try ParsedWAV.sizesMatchFile(dir + "/song.wav"))
    }

    @Test func headerIsValidAfterEveryWriteWithoutClose() throws {
        let signal = try TestSignal(seconds: 0.5)
        let wav = try sink("live.wav")
        try wav.open(signal.format)
        #expect(try ParsedWAV.sizesMatchFile(dir + "/live.wav"))
        try signal.floats.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: signal.frames, by: 1000) {
                let end = min(signal.frames, start + 1000)
                _ = try wav.write(UnsafeBufferPointer(rebasing: all[(start * 2)..<(end * 2)]))
                // As if the process were killed right here.
                #expect(try ParsedWAV.sizesMatchFile(dir + "/live.wav"))
                #expect(try ParsedWAV(dir + "/live.wav").dataSize == UInt32(end * 4))
            }
        }
    }

    @Test func fivePointOneIsExtensibleWithMask3F() throws {
        let signal = try TestSignal(seconds: 0.2, channels: 6)
        let wav = try sink("surround.wav")
        try wav.open(signal.format)
        try DeviceDriver(wav, channels: 6).play(signal.floats)
        wav.close()
        let w = try ParsedWAV(dir + "/surround.wav")
        #expect(w.formatTag == 0xFFFE)
        #expect(w.channels == 6 && w.bits == 16 && w.validBits == 16 && w.blockAlign == 12)
        #expect(w.channelMask == 0x3F)
        #expect(w.subFormat == 1)
        #expect(difference(w.data, signal.bytes, frameBytes: w.blockAlign) == nil)
        #expect(try ParsedWAV.sizesMatchFile(dir + "/surround.wav"))
    }

    @Test func floatVariantStoresTheSamplesAsIEEEFloat() throws {
        let signal = try TestSignal(seconds: 0.2)
        let wav = try sink("float.wav", float: true)
        try wav.open(signal.format)
        try DeviceDriver(wav, channels: 2).play(signal.floats)
        wav.close()
        let w = try ParsedWAV(dir + "/float.wav")
        #expect(w.formatTag == 0xFFFE && w.subFormat == 3)
        #expect(w.bits == 32 && w.blockAlign == 8 && w.channelMask == 0x3)
        #expect(w.factFrames == UInt32(signal.frames))
        let expected = signal.floats.flatMap { f in withUnsafeBytes(of: f.bitPattern.littleEndian) { Array($0) } }
        #expect(difference(w.data, expected, frameBytes: 8) == nil)
        #expect(try ParsedWAV.sizesMatchFile(dir + "/float.wav"))
    }

    @Test func formatChangeContinuesInANumberedFile() throws {
        let first = try TestSignal(seconds: 0.3)
        let second = try TestSignal(seconds: 0.3, rate: 22050, channels: 1, synth: ["sine", "300"])
        let wav = try sink("song.wav")
        try wav.open(first.format)
        try DeviceDriver(wav, channels: 2).play(first.floats)
        try wav.open(first.format)  // same format: same file
        try wav.open(second.format)
        try DeviceDriver(wav, channels: 1).play(second.floats)
        wav.close()
        let a = try ParsedWAV(dir + "/song.wav")
        let b = try ParsedWAV(dir + "/song.2.wav")
        #expect(a.sampleRate == 44100 && a.channels == 2)
        #expect(difference(a.data, first.bytes) == nil)
        #expect(b.sampleRate == 22050 && b.channels == 1)
        #expect(difference(b.data, second.bytes, frameBytes: 2) == nil)
        #expect(try ParsedWAV.sizesMatchFile(dir + "/song.wav"))
        #expect(try ParsedWAV.sizesMatchFile(dir + "/song.2.wav"))
        let lines = notices.all
        #expect(lines.count == 1)
        #expect(lines.first?.contains("song.2.wav") == true)
        #expect(lines.first?.contains("22050 Hz, 1 channel") == true)
    }

    @Test func anUnwritablePathFailsWithOneClearLine() throws {
        let path = dir + "/no-such-dir/song.wav"
        #expect {
            _ = try WAVOutput(path: path, float: false, untimed: true) { _ in }
        } throws: { error in
            let text = (error as? OutputError)?.description ?? ""
            return text.contains(path) && text.contains("No such file or directory") && !text.contains("\n")
        }
    }

    /// Found by bench/bad-input.sh: when no input decodes, the player used to leave a 0-byte
    /// "out.wav" behind, a file no program can read as WAV.
    @Test func aSinkClosedBeforeAnySamplesLeavesNoFile() throws {
        let path = dir + "/nothing.wav"
        let wav = try WAVOutput(path: path, float: false, untimed: true) { _ in }
        #expect(FileManager.default.fileExists(atPath: path))
        wav.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aSinkClosedBeforeAnySamplesLeavesADeviceAlone() throws {
        let wav = try WAVOutput(path: "/dev/null", float: false, untimed: true) { _ in }
        wav.close()
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFullDiskFailsWithOneClearLine() throws {
        let wav = try WAVOutput(path: "/dev/full", float: false, untimed: true) { _ in }
        #expect {
            try wav.open(AudioFormat(sampleRate: 44100, channels: 2))
        } throws: { error in
            let text = (error as? OutputError)?.description ?? ""
            return text.contains("/dev/full") && text.contains("No space left on device") && !text.contains("\n")
        }
    }

    @Test func aPipeGetsOneHeaderThenTheSamples() throws {
        let fifo = dir + "/pipe.wav"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = try SpawnedProcess(["cat", fifo], stdout: dir + "/piped.wav")
        defer { reader.stop() }
        let signal = try TestSignal(seconds: 0.3)
        let wav = try sink("pipe.wav")
        try wav.open(signal.format)
        #expect(try DeviceDriver(wav, channels: 2).play(signal.floats) == signal.frames)
        wav.close()
        #expect(reader.wait(timeout: 5))
        let w = try ParsedWAV(dir + "/piped.wav")
        #expect(w.formatTag == 1 && w.channels == 2 && w.sampleRate == 44100)
        #expect(w.dataSize > UInt32(signal.bytes.count))  // "as long as can be": the length was unknown
        #expect(difference(w.data, signal.bytes) == nil)
    }

    @Test func pacedWritingTakesRealTime() throws {
        let wav = try WAVOutput(path: dir + "/paced.wav", float: false, untimed: false) { _ in }
        try wav.open(AudioFormat(sampleRate: 48000, channels: 2))
        let elapsed = try seconds {
            try DeviceDriver(wav, channels: 2).play([Float](repeating: 0.1, count: 48000))
            wav.drain()
        }
        #expect(elapsed >= 0.48 && elapsed < 0.7, "took \(elapsed) s")
        wav.close()
        #expect(try ParsedWAV(dir + "/paced.wav").dataSize == 48000 * 2)
    }
}
