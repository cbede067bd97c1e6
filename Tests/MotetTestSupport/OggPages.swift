import Foundation

/// A minimal Ogg page reader and writer for fixtures that tools cannot make: hand-made streams of
/// other codecs, rewritten comment headers with exact bytes (NULs, absurd lengths), renumbered pages.
public struct OggPage: Sendable, Equatable {
    /// Bit 0: continued packet, bit 1: beginning of stream, bit 2: end of stream.
    public var headerType: UInt8
    public var granulePosition: UInt64
    public var serial: UInt32
    public var sequence: UInt32
    /// Lacing values.
    public var segments: [UInt8]
    public var body: [UInt8]

    public init(headerType: UInt8, granulePosition: UInt64, serial: UInt32, sequence: UInt32, segments: [UInt8], body: [UInt8]) {
        self.headerType = headerType
        self.granulePosition = granulePosition
        self.serial = serial
        self.sequence = sequence
        self.segments = segments
        self.body = body
    }

    /// The page's bytes with a correct checksum.
    public var bytes: [UInt8] {
        var b: [UInt8] = Array("OggS".utf8) + [0, headerType]
        b += le(granulePosition, 8) + le(UInt64(serial), 4) + le(UInt64(sequence), 4) + [0, 0, 0, 0]
        b.append(UInt8(segments.count))
        b += segments + body
        let crc = OggPage.crc(b)
        b[22] = UInt8(crc & 0xff)
        b[23] = UInt8((crc >> 8) & 0xff)
        b[24] = UInt8((crc >> 16) & 0xff)
        b[25] = UInt8(crc >> 24)
        return b
    }

    private func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * UInt64($0))) & 0xff) } }

    /// Ogg's CRC-32 (polynomial 0x04c11db7, not reflected, initial 0) over a page whose checksum
    /// field is zero.
    public static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for b in bytes {
            crc ^= UInt32(b) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04c1_1db7 : crc << 1 }
        }
        return crc
    }

    /// Splits a file into pages (stops at the first thing that is not a whole page).
    public static func parse(_ data: [UInt8]) -> [OggPage] {
        var pages: [OggPage] = []
        var offset = 0
        func le(_ at: Int, _ n: Int) -> UInt64 { (0..<n).reduce(0) { $0 | UInt64(data[at + $1]) << (8 * UInt64($1)) } }
        while offset + 27 <= data.count, data[offset..<offset + 4].elementsEqual("OggS".utf8) {
            let count = Int(data[offset + 26])
            guard offset + 27 + count <= data.count else { break }
            let segments = Array(data[offset + 27..<offset + 27 + count])
            let bodyLength = segments.reduce(0) { $0 + Int($1) }
            let bodyStart = offset + 27 + count
            guard bodyStart + bodyLength <= data.count else { break }
            pages.append(
                OggPage(
                    headerType: data[offset + 5], granulePosition: le(offset + 6, 8), serial: UInt32(le(offset + 14, 4)),
                    sequence: UInt32(le(offset + 18, 4)), segments: segments,
                    body: Array(data[bodyStart..<bodyStart + bodyLength])))
            offset = bodyStart + bodyLength
        }
        return pages
    }

    /// Lays packets out on pages (at most 255 lacing values each), each packet starting a new page,
    /// numbered from `firstSequence`. The first page gets the beginning-of-stream flag when `bos`.
    public static func paginate(_ packets: [[UInt8]], serial: UInt32, firstSequence: UInt32, bos: Bool, granule: UInt64 = 0) -> [OggPage] {
        var pages: [OggPage] = []
        for packet in packets {
            var lacing = [UInt8](repeating: 255, count: packet.count / 255)
            lacing.append(UInt8(packet.count % 255))
            var lacingOffset = 0
            var bodyOffset = 0
            var continued = false
            while lacingOffset < lacing.count {
                let take = min(255, lacing.count - lacingOffset)
                let segs = Array(lacing[lacingOffset..<lacingOffset + take])
                let length = segs.reduce(0) { $0 + Int($1) }
                let ends = lacingOffset + take == lacing.count
                var type: UInt8 = continued ? 1 : 0
                if bos && pages.isEmpty { type |= 2 }
                pages.append(
                    OggPage(
                        headerType: type, granulePosition: ends ? granule : UInt64.max, serial: serial,
                        sequence: firstSequence + UInt32(pages.count), segments: segs,
                        body: Array(packet[bodyOffset..<bodyOffset + length])))
                lacingOffset += take
                bodyOffset += length
                continued = true
            }
        }
        return pages
    }

    /// The packets that start on the first pages of a file: returns the first `count` packets and
    /// the index of the page after the one where the last of them ends.
    public static func firstPackets(_ pages: [OggPage], count: Int) -> (packets: [[UInt8]], nextPage: Int) {
        var packets: [[UInt8]] = []
        var current: [UInt8] = []
        for (index, page) in pages.enumerated() {
            var offset = 0
            for lace in page.segments {
                current += page.body[offset..<offset + Int(lace)]
                offset += Int(lace)
                if lace < 255 {
                    packets.append(current)
                    current = []
                    if packets.count == count { return (packets, index + 1) }
                }
            }
        }
        return (packets, pages.count)
    }
}

extension Fixtures {
    /// A Vorbis comment packet with exactly these comment bytes (each "KEY=value", any bytes).
    public static func vorbisCommentPacket(vendor: String = "Motet tests", comments: [[UInt8]]) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
        var packet: [UInt8] = [3] + Array("vorbis".utf8)
        packet += le32(vendor.utf8.count) + Array(vendor.utf8)
        packet += le32(comments.count)
        for c in comments { packet += le32(c.count) + c }
        packet.append(1)  // framing bit
        return packet
    }

    /// The same comments as an Opus comment header (RFC 7845 5.2: "OpusTags", no framing bit).
    public static func opusTagsPacket(vendor: String = "Motet tests", comments: [[UInt8]]) -> [UInt8] {
        var packet = vorbisCommentPacket(vendor: vendor, comments: comments)
        packet.removeLast()
        return Array("OpusTags".utf8) + packet.dropFirst(7)
    }

    /// Replaces the comment header of a single-link Ogg Vorbis or Ogg Opus file with `comments`
    /// (raw bytes), so tests control every byte: NULs, invalid UTF-8, absurd picture blocks, huge
    /// values.
    public static func replaceComments(_ path: String, _ comments: [[UInt8]]) throws {
        let pages = OggPage.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        guard let serial = pages.first?.serial else { throw TestError.failed("\(path): no Ogg pages") }
        let opus = pages[0].body.starts(with: Array("OpusHead".utf8))
        let count = opus ? 2 : 3
        let (headers, audioStart) = OggPage.firstPackets(pages, count: count)
        guard headers.count == count else { throw TestError.failed("\(path): fewer than \(count) headers") }
        var out = OggPage.paginate([headers[0]], serial: serial, firstSequence: 0, bos: true)
        let rest = opus ? [opusTagsPacket(comments: comments)] : [vorbisCommentPacket(comments: comments), headers[2]]
        out += OggPage.paginate(rest, serial: serial, firstSequence: UInt32(out.count), bos: false)
        let shift = Int64(out.count) - Int64(audioStart)
        for var page in pages[audioStart...] {
            page.sequence = UInt32(Int64(page.sequence) + shift)
            out.append(page)
        }
        var data = Data()
        for page in out { data.append(contentsOf: page.bytes) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// An Ogg file whose only stream is not Vorbis: one beginning-of-stream page holding `payload`
    /// (e.g. an "OpusHead" header) and one end-of-stream page.
    public static func foreignOgg(_ path: String, payload: [UInt8]) throws {
        var pages = OggPage.paginate([payload, [0, 0, 0, 0]], serial: 0x1234, firstSequence: 0, bos: true)
        pages[pages.count - 1].headerType |= 4
        var data = Data()
        for page in pages { data.append(contentsOf: page.bytes) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// The 19-byte identification header of an Ogg Opus stream (RFC 7845), stereo 48 kHz.
    public static let opusHead: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0]

    /// Copies `source` to `path` with the end-of-stream flag cleared on its last page (and that
    /// page's checksum fixed): a complete file as many encoders in the wild write it.
    public static func withoutEndOfStream(of source: String, to path: String) throws {
        var pages = OggPage.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
        guard !pages.isEmpty else { throw TestError.failed("\(source) holds no Ogg page") }
        pages[pages.count - 1].headerType &= ~4
        var data = Data()
        for page in pages { data.append(contentsOf: page.bytes) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Copies `source` to `path` keeping only its first `bytes` bytes (a truncated download).
    public static func truncatedCopy(of source: String, to path: String, bytes: Int) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        try data.prefix(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Copies `source` to `path` with `count` bytes of deterministic garbage written over it at
    /// `offset` (damage in the middle of a file).
    public static func damagedCopy(of source: String, to path: String, offset: Int, count: Int, seed: UInt64 = 1) throws {
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        var state = seed
        for i in offset..<min(data.count, offset + count) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        try Data(data).write(to: URL(fileURLWithPath: path))
    }
}
