import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// FLAC PICTURE blocks and base64 are hostile input: every length is checked, nothing crashes.
@Suite struct PictureParserTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]

    @Test func parsesAWellFormedBlock() throws {
        let block = Fixtures.pictureBlock(type: 3, mime: "image/png", description: "Front", width: 640, height: 480, data: Self.png)
        let picture = try PictureParser.parse(block)
        #expect(picture == EmbeddedPicture(bytes: Self.png, mime: "image/png", pictureType: 3))
    }

    @Test func theBytesDecideTheMIMETypeWhenTheyAreRecognisable() throws {
        let jpeg: [UInt8] = [0xff, 0xd8, 0xff, 0xdb, 0, 0]
        #expect(try PictureParser.parse(Fixtures.pictureBlock(mime: "image/png", data: jpeg)).mime == "image/jpeg")
        #expect(try PictureParser.parse(Fixtures.pictureBlock(mime: "image/x-odd", data: [1, 2, 3])).mime == "image/x-odd")
        #expect(try PictureParser.parse(Fixtures.pictureBlock(mime: "bad\u{1}mime", data: [1, 2, 3])).mime == "application/octet-stream")
    }

    @Test func everyTruncationIsRejectedWithAReason() throws {
        let block = Fixtures.pictureBlock(type: 3, mime: "image/png", description: "d", data: Self.png)
        for length in 0..<block.count {
            #expect(throws: PictureError.self) { try PictureParser.parse(Array(block.prefix(length))) }
        }
        do {
            _ = try PictureParser.parse(Array(block.prefix(20)))
        } catch {
            #expect(error.description.contains("runs past the end"))
        }
    }

    @Test func hugeLengthFieldsAreRejected() throws {
        var block = Fixtures.pictureBlock(mime: "image/png", data: Self.png)
        block.replaceSubrange(4..<8, with: [0xff, 0xff, 0xff, 0xff])
        #expect(throws: PictureError.self) { try PictureParser.parse(block) }

        var big = Fixtures.pictureBlock(mime: "image/png", data: Self.png)
        let lengthAt = big.count - Self.png.count - 4
        big.replaceSubrange(lengthAt..<lengthAt + 4, with: [0x04, 0, 0, 0])  // 64 MiB claimed
        do {
            _ = try PictureParser.parse(big)
            Issue.record("a 64 MiB picture length was accepted")
        } catch {
            #expect(error.description == "picture of 64 MiB ignored (limit 16 MiB)")
        }
    }

    @Test func linksAndEmptyPicturesAreRejected() {
        #expect(throws: PictureError.self) { try PictureParser.parse(Fixtures.pictureBlock(mime: "-->", data: Array("http://x/y.png".utf8))) }
        #expect(throws: PictureError.self) { try PictureParser.parse(Fixtures.pictureBlock(mime: "image/png", data: [])) }
    }

    @Test func randomBytesNeverCrash() {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = (0..<Int(next() % 96)).map { _ in UInt8(truncatingIfNeeded: next()) }
            // Half the time, small plausible lengths so parsing gets deep into the block.
            if next() % 2 == 0, bytes.count >= 8 { bytes.replaceSubrange(4..<8, with: [0, 0, 0, UInt8(next() % 8)]) }
            if (try? PictureParser.parse(bytes)) != nil { accepted += 1 }
            _ = PictureParser.base64Decode(String(decoding: bytes, as: UTF8.self))
        }
        #expect(accepted < 3000)
    }

    @Test func base64DecodesStandardText() {
        #expect(PictureParser.base64Decode("TWFu") == Array("Man".utf8))
        #expect(PictureParser.base64Decode("TWE=") == Array("Ma".utf8))
        #expect(PictureParser.base64Decode("TQ==") == Array("M".utf8))
        #expect(PictureParser.base64Decode("TQ") == Array("M".utf8))
        #expect(PictureParser.base64Decode("") == [])
        #expect(PictureParser.base64Decode("TW\nFu") == Array("Man".utf8))
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(PictureParser.base64Decode(Data(bytes).base64EncodedString()) == bytes)
    }

    @Test func base64RejectsOtherText() {
        #expect(PictureParser.base64Decode("TW-u") == nil)
        #expect(PictureParser.base64Decode("TWFu=x") == nil)
        #expect(PictureParser.base64Decode("T") == nil)
        #expect(PictureParser.base64Decode("TQ===") == nil)
        #expect(PictureParser.base64Decode("TWFué") == nil)
    }
}
