import Foundation
import MotetTestSupport

/// Ogg Vorbis fixtures with the tags the tests look for.
enum MPRISFixtures {
    /// A 1×1 PNG, the artwork the tests expect MPRIS to point at.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// `count` tracks "Track 1"…, by "Ada Artist" and "Bo Second", on "Motet Album", each
    /// `seconds` long, in `directory`. Track 1 has embedded PNG artwork when `artwork`.
    static func tracks(_ count: Int, seconds: Double, in directory: String, artwork: Bool = false) throws -> [String] {
        var paths: [String] = []
        for i in 1...count {
            let path = directory + "/\(i) Track é \(i).ogg"
            try Fixtures.oggVorbis(
                path, seconds: seconds, synth: ["sine", "\(300 + 100 * i)"],
                // oggenc takes one -a per input file: both ARTISTs go in as raw comments, in order.
                tags: Fixtures.Tags(
                    title: "Track \(i)", album: "Motet Album", extra: ["ARTIST=Ada Artist", "ARTIST=Bo Second"]),
                serial: 1000 + i)
            if artwork && i == 1 {
                let block = Fixtures.pictureBlock(mime: "image/png", data: png)
                try Fixtures.addComments(path, ["METADATA_BLOCK_PICTURE=" + Data(block).base64EncodedString()])
            }
            paths.append(path)
        }
        return paths
    }
}
