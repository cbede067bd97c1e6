// libFuzzer target: the .xspf playlist scanner and the resolution of its locations.

@testable import MotetConfiguration
import MotetEvents
import MotetNetwork

/// One input: the bytes of an `.xspf` playlist; every location is resolved (as a URI reference)
/// against a directory and against a remote playlist's URL.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXspf(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let (entries, notes) = XSPFReader.read(bytes)
    for note in notes { precondition(note.line >= 1 && !note.text.contains("\n")) }
    // At most one entry per `<` (each needs a start tag), in document order.
    precondition(entries.count <= bytes.count(where: { $0 == UInt8(ascii: "<") }))
    var line = 1
    let base = WebAddress("https://user:secret@radio.example/lists/a.xspf")!
    for entry in entries {
        precondition(entry.line >= line && !entry.text.isEmpty)
        precondition(entry.text == PlaylistReader.trimmed(Substring(entry.text)))
        line = entry.line
        _ = PlaylistReader.resolve(entry.text, against: .directory("/music/"), uriReference: true)
        FuzzChecks.resolve(entry.text, against: base, uriReference: true)
    }
    return 0
}
