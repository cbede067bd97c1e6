// libFuzzer target: Vorbis comment handling (VorbisCommentReader) over a vorbis_comment built the
// way libvorbis builds one: an array of entries with their lengths, each entry NUL-terminated.
import CVorbisFile

/// One input: the comments, one per line (`\n`); the bytes of a line are the comment as stored.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzComments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let count = lines.count
    let entries = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: count + 1)
    let lengths = UnsafeMutablePointer<Int32>.allocate(capacity: count + 1)
    for (i, line) in lines.enumerated() {
        // Exactly the comment's bytes plus libvorbis's terminating NUL: ASan sees any over-read.
        let entry = UnsafeMutablePointer<CChar>.allocate(capacity: line.count + 1)
        for (j, b) in line.enumerated() { entry[j] = CChar(bitPattern: b) }
        entry[line.count] = 0
        entries[i] = entry
        lengths[i] = Int32(line.count)
    }
    entries[count] = nil
    lengths[count] = 0
    var comment = vorbis_comment(user_comments: entries, comment_lengths: lengths, comments: Int32(count), vendor: nil)
    let metadata = withUnsafePointer(to: &comment) { VorbisCommentReader.metadata(from: $0) }
    precondition((metadata.title?.utf8.count ?? 0) <= VorbisCommentReader.maximumTextBytes)
    precondition((metadata.album?.utf8.count ?? 0) <= VorbisCommentReader.maximumTextBytes)
    precondition(metadata.artists.count <= VorbisCommentReader.maximumArtists)
    precondition(metadata.warnings.count <= VorbisCommentReader.maximumWarnings)
    for i in 0..<count { entries[i]?.deallocate() }
    entries.deallocate()
    lengths.deallocate()
    return 0
}
