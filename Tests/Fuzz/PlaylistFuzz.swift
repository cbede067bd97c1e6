// libFuzzer target: the m3u playlist reader and entry resolution.

@testable import MotetConfiguration

/// One input: the bytes of an `.m3u` playlist; every entry is resolved against a directory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    for entry in PlaylistReader.entries(bytes) {
        precondition(!entry.text.isEmpty && entry.line >= 1)
        _ = PlaylistReader.resolve(entry.text, against: .directory("/music/"))
        _ = PlaylistReader.directory(of: entry.text)
    }
    return 0
}
