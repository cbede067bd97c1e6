import Glibc

/// file:// URIs for paths (MPRIS `mpris:artUrl`, `xesam:url`).
enum FileURI {
    /// `file://` plus the absolute path, every byte but unreserved characters and `/` percent-encoded.
    static func make(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            if let buffer = getcwd(nil, 0) {
                let cwd = String(cString: buffer)
                free(buffer)
                absolute = cwd.hasSuffix("/") ? cwd + path : cwd + "/" + path
            }
        }
        var uri = "file://"
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(absolute.utf8.count)
        for b in absolute.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(b)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xf)]]
            }
        }
        uri += String(decoding: bytes, as: UTF8.self)
        return uri
    }
}
