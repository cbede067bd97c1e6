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

/// Plays frames through a device on the calling thread, as the player's sink worker does: write
/// what fits, wait on the device for room. Keeps the count of frames written, so that the heard
/// position (written minus the device's delay) can be asked for.
final class DeviceDriver {
    let device: any AudioOutput
    let channels: Int
    /// Frames written since the driver was made or `reset`.
    private(set) var written: Int64 = 0

    init(_ device: any AudioOutput, channels: Int) {
        self.device = device
        self.channels = channels
    }

    /// Frames heard now: written minus the device's delay.
    var heard: Int64 { max(0, written - device.state().delayFrames) }

    /// Writes `floats` (again and again when `loop`) until all are written, `until()` holds, or
    /// `giveUp` seconds pass; returns the frames written. `until` is checked between writes and
    /// waits (at least every 20 ms).
    @discardableResult
    func play(_ floats: [Float], loop: Bool = false, giveUp: Double = 30, until: () -> Bool = { false }) throws -> Int {
        let clock = Stopwatch()
        let total = floats.count / channels
        var done = 0
        try floats.withUnsafeBufferPointer { all in
            while clock.seconds < giveUp, !until() {
                if done == total {
                    guard loop else { return }
                    done = 0
                }
                let accepted = try device.write(UnsafeBufferPointer(rebasing: all[(done * channels)...]))
                done += accepted
                written += Int64(accepted)
                if accepted == 0 { device.wait(timeout: .milliseconds(20)) }
            }
        }
        return done
    }

    /// Lets the device play on (nothing written) for `seconds`, asking for its state meanwhile.
    func idle(_ seconds: Double) {
        let clock = Stopwatch()
        while clock.seconds < seconds {
            _ = device.state()
            usleep(10_000)
        }
    }

    /// `device.reset()`, and the count of frames written starts again.
    func reset() {
        device.reset()
        written = 0
    }
}

/// Opens `device` for `format`, plays all of `floats` through it and drains it; returns the
/// frames written.
@discardableResult
func playAll(_ device: any AudioOutput, _ floats: [Float], format: AudioFormat) throws -> Int {
    try device.open(format)
    let driver = DeviceDriver(device, channels: format.channels)
    let n = try driver.play(floats)
    device.drain()
    return n
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
    let start = Stopwatch()
    try body()
    return start.seconds
}

/// Where two byte strings first differ, in a line fit for a test failure (nil when equal):
/// comparing megabytes with `==` inside `#expect` would print them all.
func difference(_ got: [UInt8], _ expected: [UInt8], frameBytes: Int = 4) -> String? {
    if got == expected { return nil }
    let first = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count)
    return "got \(got.count / frameBytes) frames, expected \(expected.count / frameBytes); first difference at frame \(first / frameBytes)"
}
