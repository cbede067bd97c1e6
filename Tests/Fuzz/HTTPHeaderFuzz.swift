// libFuzzer target: the HTTP response header parser (ResponseHead) and the content checks.
import MotetEvents

/// One input: bytes as a server might send them before (and as) a body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let head = ResponseHead.parse(bytes)
    for field in [head.station.name, head.station.description, head.station.genre, head.station.homepage, head.reason] {
        guard let field else { continue }
        precondition(field.count <= ResponseHead.maximumFieldLength)
        precondition(field.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
    }
    precondition(!head.isSeekable || head.contentLength != nil)
    if let type = head.contentType { precondition(type.count <= ResponseHead.maximumFieldLength) }
    _ = ContentCheck.rejectType(head.contentType)?.line(url: "http://x/")
    _ = ContentCheck.describeRefused(bytes, contentType: head.contentType).line(url: "http://x/")
    _ = WebAddress(String(decoding: bytes, as: UTF8.self))?.host
    return 0
}
