import Foundation
import MotetTestSupport

/// The header of a WAV file as a player would read it.
struct ParsedWAV {
    var formatTag = 0, channels = 0, sampleRate = 0, byteRate = 0, blockAlign = 0, bits = 0
    var validBits = 0, channelMask: UInt32 = 0, subFormat: UInt32 = 0
    var riffSize: UInt32 = 0, dataSize: UInt32 = 0, dataOffset = 0
    var factFrames: UInt32?
    var data: [UInt8] = []

    init(_ path: String) throws {
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard b.count >= 44, b.tag(0) == "RIFF", b.tag(8) == "WAVE" else { throw TestError.failed("not RIFF/WAVE") }
        riffSize = b.u32(4)
        var at = 12
        while at + 8 <= b.count {
            let id = b.tag(at)
            let size = Int(b.u32(at + 4))
            let body = at + 8
            switch id {
            case "fmt ":
                formatTag = b.u16(body)
                channels = b.u16(body + 2)
                sampleRate = Int(b.u32(body + 4))
                byteRate = Int(b.u32(body + 8))
                blockAlign = b.u16(body + 12)
                bits = b.u16(body + 14)
                if formatTag == 0xFFFE {
                    validBits = b.u16(body + 18)
                    channelMask = b.u32(body + 20)
                    subFormat = b.u32(body + 24)
                }
            case "fact":
                factFrames = b.u32(body)
            case "data":
                dataSize = UInt32(size)
                dataOffset = body
                data = Array(b[body..<min(b.count, body + size)])
            default:
                break
            }
            if id == "data" { break }
            at = body + size + (size & 1)
        }
    }

    /// The header describes the file exactly: RIFF size = file size - 8, data runs to the end.
    static func sizesMatchFile(_ path: String) throws -> Bool {
        let w = try ParsedWAV(path)
        let fileSize = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
        return Int(w.riffSize) + 8 == fileSize && w.dataOffset + Int(w.dataSize) == fileSize
    }
}
