/// Parses a FLAC PICTURE block (base64-decoded). Hostile input: every length checked against what remains.
///
/// The block is big-endian: picture type, MIME length + MIME, description length + description
/// (UTF-8), width, height, colour depth, palette size, data length + data.
public enum PictureParser {
    /// The largest picture kept (16 MiB); larger ones are ignored with a warning.
    public static let maximumBytes = 16 << 20
    /// The longest MIME type accepted.
    static let maximumMIMELength = 128

    /// Parses `bytes`, a decoded METADATA_BLOCK_PICTURE value. Throws a one-line reason when the block
    /// is malformed, refers to a URL instead of holding the picture, or exceeds `maximumBytes`.
    public static func parse(_ bytes: [UInt8]) throws(PictureError) -> EmbeddedPicture {
        var reader = ByteReader(bytes)
        let type = try reader.uint32("picture type")
        let mimeLength = try reader.uint32("MIME type length")
        let mimeBytes = try reader.bytes(count: mimeLength, "MIME type")
        let descriptionLength = try reader.uint32("description length")
        _ = try reader.bytes(count: descriptionLength, "description")
        for field in ["width", "height", "colour depth", "palette size"] { _ = try reader.uint32(field) }
        let dataLength = try reader.uint32("picture data length")
        guard Int(dataLength) <= maximumBytes else {
            throw .tooLarge(bytes: Int(dataLength))
        }
        guard dataLength > 0 else { throw .empty }
        let data = try reader.bytes(count: dataLength, "picture data")
        if mimeBytes.elementsEqual("-->".utf8) {
            throw .link
        }
        return EmbeddedPicture(bytes: data, mime: mimeType(declared: mimeBytes, data: data), pictureType: type)
    }

    /// Decodes standard base64 (RFC 4648, `+` and `/`, optional `=` padding; ASCII whitespace is
    /// skipped). Nil when `s` holds any other character or a malformed ending.
    public static func base64Decode(_ s: String) -> [UInt8]? {
        var s = s
        return s.withUTF8 { base64Decode(bytes: $0, limit: Int.max) }
    }

    /// Decodes at most `limit` output bytes' worth of base64 from `bytes` (the rest is not looked at).
    static func base64Decode(bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(min(limit, bytes.count / 4 * 3 + 3))
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for c in bytes {
            let value: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="):
                padding += 1
                if padding > 2 { return nil }
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            default:
                return nil
            }
            if padding > 0 { return nil }  // data after padding
            accumulator = (accumulator << 6) | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((accumulator >> UInt32(bits)) & 0xff))
                accumulator &= (1 << UInt32(bits)) - 1
                if out.count >= limit { return out }
            }
        }
        // 6 leftover bits cannot come from whole bytes.
        if bits >= 6 { return nil }
        return out
    }

    /// The MIME type to report: what the bytes are when recognisable, else the declared type when it
    /// is plain printable ASCII, else "application/octet-stream".
    static func mimeType(declared: [UInt8], data: [UInt8]) -> String {
        if let sniffed = sniffImageType(data) { return sniffed }
        if !declared.isEmpty, declared.count <= maximumMIMELength,
            declared.allSatisfy({ $0 > 0x20 && $0 < 0x7f })
        {
            return String(decoding: declared, as: UTF8.self)
        }
        return "application/octet-stream"
    }

    /// Recognises JPEG, PNG, GIF, WebP and BMP by their first bytes.
    static func sniffImageType<C: Collection<UInt8>>(_ data: C) -> String? where C.Index == Int {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + prefix.count && data[(data.startIndex + offset)...].starts(with: prefix)
        }
        if starts([0xff, 0xd8, 0xff]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) { return "image/png" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        if starts(Array("BM".utf8)) && data.count > 26 { return "image/bmp" }
        return nil
    }

    /// "52 MiB", "300 KiB", "12 bytes".
    static func megabytes(_ count: Int) -> String {
        if count >= 1 << 20 { return "\((count + (1 << 19)) >> 20) MiB" }
        if count >= 1 << 10 { return "\((count + 512) >> 10) KiB" }
        return "\(count) bytes"
    }

    /// Reads big-endian fields, never past the end.
    private struct ByteReader {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func uint32(_ field: String) throws(PictureError) -> UInt32 {
            guard bytes.count - offset >= 4 else { throw truncated(field) }
            let b = bytes[offset..<offset + 4]
            offset += 4
            return b.reduce(0) { ($0 << 8) | UInt32($1) }
        }

        mutating func bytes(count: UInt32, _ field: String) throws(PictureError) -> [UInt8] {
            guard UInt64(count) <= UInt64(bytes.count - offset) else { throw truncated(field) }
            let slice = bytes[offset..<offset + Int(count)]
            offset += Int(count)
            return Array(slice)
        }

        private func truncated(_ field: String) -> PictureError {
            .truncated(field: field, blockBytes: bytes.count)
        }
    }
}

/// Why an embedded picture is ignored; `description` is the one warning line for each case.
public enum PictureError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A field (`field`) runs past the end of the block (`blockBytes` long).
    case truncated(field: String, blockBytes: Int)
    /// The picture's data is longer than `PictureParser.maximumBytes`.
    case tooLarge(bytes: Int)
    /// The block holds no image data.
    case empty
    /// The block refers to an image by URL (MIME type `-->`) instead of holding it.
    case link

    public var description: String {
        switch self {
        case .truncated(let field, let blockBytes):
            "embedded picture ignored: its \(field) runs past the end of the block (\(blockBytes) bytes)"
        case .tooLarge(let bytes):
            "picture of \(PictureParser.megabytes(bytes)) ignored (limit \(PictureParser.megabytes(PictureParser.maximumBytes)))"
        case .empty: "embedded picture ignored: it holds no image data"
        case .link: "embedded picture ignored: it is a link to an image, not an image"
        }
    }
}
