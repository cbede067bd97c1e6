import Foundation
import MotetDecoding
import MotetEvents
import MotetTestSupport

/// Everything a `VorbisDecoder` produced from one file, read to the end.
struct DecodedFile {
    /// One per link, in order: the format and tags announced before its samples, and the samples.
    struct Link {
        var format: AudioFormat
        var metadata: TrackMetadata
        var samples: [Float] = []
        var frames: Int { format.channels == 0 ? 0 : samples.count / format.channels }
    }

    var links: [Link] = []
    var holes: [DecoderError] = []
    var failure: DecoderError?
    /// `positionMicros` after the last read.
    var finalPosition: Int64 = 0

    var frames: Int { links.reduce(0) { $0 + $1.frames } }
    var allSamples: [Float] { links.flatMap(\.samples) }

    /// Reads `decoder` to the end, `chunk` frames at a time.
    static func read(_ decoder: VorbisDecoder, chunk: Int = 4096) -> DecodedFile {
        var result = DecodedFile()
        result.links.append(Link(format: decoder.format, metadata: decoder.metadata))
        var capacity = chunk * max(1, decoder.format.channels)
        var buffer = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var steps = 0
        loop: while steps < 10_000_000 {
            steps += 1
            switch decoder.read(into: buffer, maxFrames: chunk) {
            case .frames(let n):
                let channels = decoder.format.channels
                result.links[result.links.count - 1].samples.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n * channels))
            case .linkChanged:
                result.links.append(Link(format: decoder.format, metadata: decoder.metadata))
                if chunk * decoder.format.channels > capacity {
                    buffer.deallocate()
                    capacity = chunk * decoder.format.channels
                    buffer = .allocate(capacity: capacity)
                }
            case .hole(let e):
                result.holes.append(e)
            case .endOfStream:
                break loop
            case .failed(let e):
                result.failure = e
                break loop
            }
        }
        result.finalPosition = decoder.positionMicros
        return result
    }

    /// Opens and reads `path` to the end.
    static func read(_ path: String, chunk: Int = 4096) throws -> DecodedFile {
        read(try VorbisDecoder(path: path), chunk: chunk)
    }
}

/// libvorbisfile's own float to 16-bit conversion (as in `ov_read`), to compare with `oggdec -R -b 16`.
enum PCM16 {
    static func int16(_ x: Float) -> Int16 {
        Int16(clamping: lrintf(x * 32768))
    }

    /// Samples as 16-bit little-endian bytes, like `oggdec -R -b 16 -e 0 -s 1` writes them.
    static func bytes(_ samples: [Float]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(samples.count * 2)
        for s in samples {
            let v = UInt16(bitPattern: int16(s))
            out.append(UInt8(v & 0xff))
            out.append(UInt8(v >> 8))
        }
        return out
    }

    /// 16-bit little-endian bytes as Int16 values.
    static func values(_ bytes: [UInt8]) -> [Int16] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }
}

/// A fresh temporary directory for one test, removed when the value goes away.
final class Scratch {
    let path: String
    init(_ label: String = "motet-decoding") throws { path = try Paths.temporaryDirectory(label) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// Nil when `a == b`, else a short account of where they differ (failure messages stay readable
/// instead of printing a million samples).
func difference<T: Equatable>(_ a: [T], _ b: [T]) -> String? {
    if a == b { return nil }
    let index = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    return "\(a.count) vs \(b.count) elements, first difference at \(index)"
}
