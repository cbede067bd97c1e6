import MotetEvents

/// Tells Ogg (Vorbis or Opus: the decoder tells them apart by the first packet) from what else a
/// server may send: by the declared content type (before any
/// byte is read) and by the first bytes (when the type says nothing useful). Pure.
public enum ContentCheck {
    /// The error for a content type that is surely not Ogg Vorbis or Ogg Opus; nil when it may be.
    public static func rejectType(_ contentType: String?) -> NetworkError? {
        guard let full = contentType?.lowercased() else { return nil }
        let type = full.split(separator: ";").first.map { $0.trimmingSpaces } ?? ""
        if let playlist = PlaylistContentType(type) { return .playlist(playlist, contentType: type) }
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/mpeg3", "audio/x-mpeg", "audio/mpa":
            return .otherFormat("an MP3 stream", contentType: type)
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/mp4", "audio/x-m4a", "audio/mp4a-latm":
            return .otherFormat("an AAC stream", contentType: type)
        case "audio/flac", "audio/x-flac":
            return .otherFormat("a FLAC stream", contentType: type)
        case "text/html", "application/xhtml+xml", "text/plain", "application/json", "text/xml":
            return .webPage(contentType: type)
        default:
            return nil
        }
    }

    /// What the first bytes of a body the decoder refused are: a damaged Opus or another Ogg stream,
    /// MP3, AAC, a web page or unknown data.
    public static func describeRefused(_ first: [UInt8], contentType: String?) -> NetworkError {
        let type = contentType ?? "no content type"
        // What the bytes are and what the server calls them differ (a type that named the format
        // was refused before any byte came): say both, not the type as if it were the format's.
        let sent = contentType.map { "sent as " + $0 } ?? type
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let p = Array(text.utf8)
            return first.count >= offset + p.count && Array(first[offset..<offset + p.count]) == p
        }
        if starts("OggS") {
            if first.count >= 36, first[28...35].elementsEqual("OpusHead".utf8) { return .otherFormat("a damaged Ogg Opus stream", contentType: type) }
            if first.count >= 33, first[28...32].elementsEqual("\u{7F}FLAC".utf8) { return .otherFormat("an Ogg FLAC stream", contentType: type) }
            if first.count >= 36, first[28...35].elementsEqual("Speex   ".utf8) { return .otherFormat("a Speex stream", contentType: type) }
            return .otherFormat("an Ogg stream that is not Vorbis (or is damaged)", contentType: type)
        }
        if starts("ID3") || (first.count >= 2 && first[0] == 0xFF && first[1] & 0xE0 == 0xE0 && first[1] & 0x06 != 0) {
            return .otherFormat("an MP3 stream", contentType: sent)
        }
        if first.count >= 2, first[0] == 0xFF, first[1] & 0xF6 == 0xF0 { return .otherFormat("an AAC stream", contentType: sent) }
        if starts("fLaC") { return .otherFormat("a FLAC stream", contentType: sent) }
        let text = String(decoding: first.prefix(256), as: UTF8.self).lowercased()
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<!doctype html") || trimmed.hasPrefix("<html") || trimmed.hasPrefix("<head") || trimmed.hasPrefix("<body") {
            return .webPage(contentType: sent)
        }
        return .notOgg
    }
}
