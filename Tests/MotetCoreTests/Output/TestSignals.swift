import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Synchronization

/// Test signals made by sox as 16-bit samples, and the float frames that carry them exactly.
struct TestSignal {
    /// The 16-bit little-endian bytes a sink must produce.
    let bytes: [UInt8]
    /// The same samples as floats (x / 32768), interleaved.
    let floats: [Float]
    let format: AudioFormat
    var frames: Int { floats.count / format.channels }

    /// `sox synth SECONDS <synth>` at `rate`/`channels`, e.g. a sweep `["sine", "200-2000"]`.
    init(seconds: Double, rate: Int = 44100, channels: Int = 2, synth: [String] = ["sine", "200-2000"]) throws {
        let dir = try Paths.temporaryDirectory("motet-signal")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let raw = dir + "/signal.raw"
        try Shell.check(
            ["sox", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", "-e", "signed-integer", "-t", "raw", raw,
             "synth", "\(seconds)"] + synth + ["vol", "0.5"])
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        bytes = b
        floats = stride(from: 0, to: b.count, by: 2).map { i in
            Float(Int16(bitPattern: UInt16(b[i]) | UInt16(b[i + 1]) << 8)) / 32768
        }
        format = AudioFormat(sampleRate: rate, channels: channels)
    }
}

/// Writes all of `floats` through `sink` in chunks of `chunkFrames`, as the player's sink thread
/// does; a write that accepts nothing (paused, lost) is retried after 10 ms until `giveUp`.
@discardableResult
func writeAll(
    _ sink: any AudioSink, _ floats: [Float], channels: Int, chunkFrames: Int = 4096, giveUp: Double = 30
) throws -> Int {
    let deadline = Date().addingTimeInterval(giveUp)
    var done = 0
    let total = floats.count / channels
    try floats.withUnsafeBufferPointer { all in
        while done < total, Date() < deadline {
            let n = min(chunkFrames, total - done)
            let chunk = UnsafeBufferPointer(rebasing: all[(done * channels)..<((done + n) * channels)])
            let accepted = try sink.write(chunk)
            if accepted == 0 { usleep(10_000) }
            done += accepted
        }
    }
    return done
}

/// Little-endian readers for parsing what the sinks wrote.
extension Array where Element == UInt8 {
    func u16(_ at: Int) -> Int { Int(self[at]) | Int(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 {
        UInt32(self[at]) | UInt32(self[at + 1]) << 8 | UInt32(self[at + 2]) << 16 | UInt32(self[at + 3]) << 24
    }
    func tag(_ at: Int) -> String { String(decoding: self[at..<(at + 4)], as: UTF8.self) }
}

/// Seconds elapsed while running `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
}

/// Where two byte strings first differ, in a line fit for a test failure (nil when equal):
/// comparing megabytes with `==` inside `#expect` would print them all.
func difference(_ got: [UInt8], _ expected: [UInt8], frameBytes: Int = 4) -> String? {
    if got == expected { return nil }
    let first = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
    return "got \(got.count / frameBytes) frames, expected \(expected.count / frameBytes); first difference at frame \(first / frameBytes)"
}
