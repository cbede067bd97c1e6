import MotetEvents

/// What an HTTP (or Shoutcast `ICY`) response's header says, built line by line as libcurl hands
/// the lines over. Pure: no I/O, fuzzed (Tests/Fuzz/HTTPHeaderFuzz.swift). A new status line (after
/// a redirect, or a `100 Continue`) starts over. Memory stays bounded whatever the server sends:
/// past `maximumBytes` the head is `tooLong` and further lines are ignored.
public struct ResponseHead: Sendable, Equatable {
    /// The most header bytes a response may have (all its lines together).
    public static let maximumBytes = 16 * 1024
    /// The most characters kept of a station's name, description, genre or home page.
    public static let maximumFieldLength = 200

    /// The status code (0 before a status line).
    public var status = 0
    /// The status line's reason phrase, cleaned ("Not Found").
    public var reason = ""
    /// `Content-Type`, lower-cased, parameters kept ("audio/ogg; codecs=opus").
    public var contentType: String?
    /// `Content-Length`, when a valid number.
    public var contentLength: Int64?
    /// `Accept-Ranges: bytes`.
    public var acceptsRanges = false
    /// The first byte of a `206`'s `Content-Range: bytes FIRST-LAST/TOTAL`.
    public var rangeStart: Int64?
    /// The total of `Content-Range` (`*`: nil).
    public var rangeTotal: Int64?
    /// The station's `icy-name`, `icy-description`, `icy-genre`, `icy-url`.
    public var station = StationInfo()
    /// Any `icy-*` header (or an `ICY` status line): a radio station.
    public var isStation = false
    /// `icy-br`: the nominal bit rate in kbit/s.
    public var bitrateKbps: Int?
    /// The empty line that ends the header has been seen.
    public var isComplete = false
    /// The header passed `maximumBytes`.
    public var isTooLong = false
    /// Bytes of header seen so far for this response.
    public private(set) var byteCount = 0

    public init() {}

    /// Live (no length, or a station): not seekable and without a duration.
    public var isLive: Bool { isStation || contentLength == nil }
    /// A finite file the server serves in ranges.
    public var isSeekable: Bool { !isLive && acceptsRanges }
    /// A redirect that libcurl follows (its header is not the one that counts).
    public var isRedirect: Bool { (300...399).contains(status) && status != 304 }

    /// Takes one header line (with or without its CR LF).
    public mutating func add(line raw: UnsafeRawBufferPointer) {
        if Self.isStatusLine(raw) {
            self = ResponseHead()
        }
        byteCount += raw.count
        guard !isTooLong, byteCount <= Self.maximumBytes else {
            isTooLong = true
            return
        }
        var line = Substring(String(decoding: raw, as: UTF8.self))
        while let last = line.last, last == "\n" || last == "\r" || last == "\r\n" { line = line.dropLast() }
        if line.isEmpty {
            if status != 0 { isComplete = true }
            return
        }
        if status == 0 {
            parseStatus(line)
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased().trimmingSpaces
        let value = String(line[line.index(after: colon)...]).trimmingSpaces
        switch name {
        case "content-type": contentType = value.isEmpty ? nil : String(value.lowercased().prefix(Self.maximumFieldLength))
        case "content-length": contentLength = Int64(value).flatMap { $0 >= 0 ? $0 : nil }
        case "accept-ranges": acceptsRanges = value.lowercased().split(separator: ",").contains { $0.trimmingSpaces == "bytes" }
        case "content-range": parseRange(value)
        case "icy-name": isStation = true; station.name = Self.cleaned(value)
        case "icy-description": isStation = true; station.description = Self.cleaned(value)
        case "icy-genre": isStation = true; station.genre = Self.cleaned(value)
        case "icy-url": isStation = true; station.homepage = Self.cleaned(value)
        case "icy-br": isStation = true; bitrateKbps = Int(value.split(separator: ",").first.map(String.init) ?? "")
        default: if name.hasPrefix("icy-") { isStation = true }
        }
    }

    /// A whole header block (lines separated by LF or CR LF), for tests and the fuzz target.
    public static func parse(_ bytes: [UInt8]) -> ResponseHead {
        var head = ResponseHead()
        var start = 0
        bytes.withUnsafeBytes { all in
            for i in 0..<all.count where all[i] == 10 {
                head.add(line: UnsafeRawBufferPointer(rebasing: all[start...i]))
                start = i + 1
            }
            if start < all.count { head.add(line: UnsafeRawBufferPointer(rebasing: all[start...])) }
        }
        return head
    }

    /// Text a station sent, fit to show: control characters removed, spaces trimmed, at most
    /// `maximumFieldLength` characters; nil when nothing is left.
    public static func cleaned(_ value: String) -> String? {
        var kept = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 { continue }
            kept.append(scalar)
        }
        let text = String(String(kept).trimmingSpaces.prefix(maximumFieldLength))
        return text.isEmpty ? nil : text
    }

    private static func isStatusLine(_ raw: UnsafeRawBufferPointer) -> Bool {
        func starts(_ prefix: String) -> Bool {
            let p = Array(prefix.utf8)
            return raw.count >= p.count && zip(raw, p).allSatisfy { $0 == $1 }
        }
        return starts("HTTP/") || starts("ICY ")
    }

    private mutating func parseStatus(_ line: String) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, let code = Int(parts[1]), (100...999).contains(code) else { return }
        status = code
        if parts[0] == "ICY" { isStation = true }
        reason = parts.count > 2 ? Self.cleaned(String(parts[2])) ?? "" : ""
    }

    private mutating func parseStatus(_ line: Substring) { parseStatus(String(line)) }

    private mutating func parseRange(_ value: String) {
        // bytes FIRST-LAST/TOTAL
        let lower = value.lowercased()
        guard lower.hasPrefix("bytes ") else { return }
        let spec = lower.dropFirst(6)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard let span = halves.first, let dash = span.firstIndex(of: "-") else { return }
        rangeStart = Int64(span[..<dash]).flatMap { $0 >= 0 ? $0 : nil }
        rangeTotal = halves.count > 1 ? Int64(halves[1]).flatMap { $0 >= 0 ? $0 : nil } : nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
