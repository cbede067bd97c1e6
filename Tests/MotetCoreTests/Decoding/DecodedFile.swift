import Foundation
import MotetDecoding
import MotetEvents
import MotetTestSupport

/// Everything a decoder (`VorbisDecoder`, `OpusDecoder`) produced from one file, read to the end.
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
    static func read(_ decoder: any AudioDecoder, chunk: Int = 4096) -> DecodedFile {
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
