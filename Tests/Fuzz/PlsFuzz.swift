// libFuzzer target: the .pls playlist reader and the resolution of its entries.

@testable import MotetConfiguration
import MotetEvents
import MotetNetwork

/// One input: the bytes of a `.pls` playlist; every entry is resolved against a directory and
/// against a remote playlist's URL (with credentials, which messages must never show).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPls(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let (entries, notes) = PLSReader.read(bytes)
    for note in notes { precondition(note.line >= 1 && !note.text.contains("\n") && !note.text.contains("\r")) }
    let base = WebAddress("http://user:secret@radio.example/lists/a.pls")!
    for entry in entries {
        precondition(entry.line >= 1 && !entry.text.isEmpty && !entry.text.contains("\n"))
        precondition(entry.text == PlaylistReader.trimmed(Substring(entry.text)))
        _ = PlaylistReader.resolve(entry.text, against: .directory("/music/"))
        FuzzChecks.resolve(entry.text, against: base, uriReference: false)
    }
    return 0
}
