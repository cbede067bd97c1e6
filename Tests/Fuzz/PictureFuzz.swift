// libFuzzer target: the METADATA_BLOCK_PICTURE parser, on raw bytes and on the same bytes as base64 text.

/// One input: the decoded block, and the input read as base64 (COVERART / METADATA_BLOCK_PICTURE value).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPicture(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    let bytes = Array(input)
    if let picture = try? PictureParser.parse(bytes) {
        precondition(picture.bytes.count <= PictureParser.maximumBytes && !picture.bytes.isEmpty)
        precondition(!picture.mime.isEmpty && picture.mime.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f })
    }
    if let decoded = PictureParser.base64Decode(bytes: input, limit: Int.max) {
        precondition(decoded.count <= input.count)
        _ = try? PictureParser.parse(decoded)
    }
    _ = PictureParser.base64Decode(bytes: input, limit: 4)
    _ = PictureParser.sniffImageType(bytes)
    return 0
}
