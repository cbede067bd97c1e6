#if canImport(Glibc)
import Glibc
#endif

/// Looks at the raw bytes of a file that libvorbisfile refused or may have been cut short, to tell
/// the user what it really is.
enum OggFileInspection {
    /// What `describeNonVorbis` says of a file that does start like Ogg Vorbis.
    static let vorbisDescription = "Ogg Vorbis"

    /// What a file that libvorbisfile refused looks like, for the error line (e.g. "an Ogg Opus file"),
    /// or `vorbisDescription` when it starts like Ogg Vorbis (so its headers are damaged or cut short).
    static func describeNonVorbis(fd: Int32) -> String? {
        var head = [UInt8](repeating: 0, count: 512)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let bytes = head[0..<count]
        func starts(_ s: String, at offset: Int = 0) -> Bool {
            bytes.count >= offset + s.utf8.count && bytes.dropFirst(offset).starts(with: s.utf8)
        }
        guard starts("OggS") else {
            if starts("ID3") || (bytes.count > 1 && bytes[0] == 0xff && bytes[1] & 0xe0 == 0xe0) { return "an MP3 file" }
            if starts("fLaC") { return "a FLAC file" }
            if starts("RIFF") && starts("WAVE", at: 8) { return "a WAV file" }
            if starts("FORM") { return "an AIFF file" }
            if starts("ftyp", at: 4) { return "an MP4/M4A file" }
            return "not an Ogg file"
        }
        // The first page's first packet names the codec.
        guard bytes.count >= 27 else { return "an Ogg file cut short in its first page" }
        let segments = Int(bytes[26])
        let payload = 27 + segments
        func codec(_ magic: [UInt8]) -> Bool {
            bytes.count >= payload + magic.count && bytes.dropFirst(payload).starts(with: magic)
        }
        if codec(Array("OpusHead".utf8)) { return "an Ogg Opus file" }
        if codec([0x7f] + Array("FLAC".utf8)) { return "an Ogg FLAC file" }
        if codec(Array("Speex   ".utf8)) { return "an Ogg Speex file" }
        if codec([0x80] + Array("theora".utf8)) { return "an Ogg Theora (video) file" }
        if codec(Array("\u{1}vorbis".utf8)) { return vorbisDescription }
        return "an Ogg file of an unknown kind"
    }

    /// How a file's last Ogg page ends it.
    enum Ending: Equatable {
        /// A whole page with the end-of-stream flag (or no page could be found to judge by).
        case whole
        /// A whole page without the end-of-stream flag. Not damage: many encoders and muxers in
        /// the wild never set it (`ogginfo` says only "EOS not set"), and every frame decodes.
        case withoutEndOfStream
        /// The last page ends past the end of the file: an incomplete copy or download.
        case cutShort
    }

    /// How the file ends, judged by its last Ogg page. Trailing bytes that hold no page (e.g. a
    /// tag appended by some tool) do not count.
    static func ending(fd: Int32, fileSize: Int64) -> Ending {
        // A page is at most 27 + 255 + 255 * 255 = 65307 bytes.
        let window = Int(min(fileSize, 65_307 * 2))
        guard window >= 27 else { return .whole }
        var tail = [UInt8](repeating: 0, count: window)
        let start = fileSize - Int64(window)
        let count = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard count == window else { return .whole }
        var candidate = window - 4
        while candidate >= 0 {
            defer { candidate -= 1 }
            guard tail[candidate] == 0x4f, tail[candidate + 1] == 0x67, tail[candidate + 2] == 0x67,
                tail[candidate + 3] == 0x53
            else { continue }
            // A capture pattern: is it a page header?
            if window - candidate < 27 { return .cutShort }  // header cut off
            guard tail[candidate + 4] == 0 else { continue }  // version 0 only
            let segments = Int(tail[candidate + 26])
            if window - candidate < 27 + segments { return .cutShort }  // segment table cut off
            var bodyLength = 0
            for i in 0..<segments { bodyLength += Int(tail[candidate + 27 + i]) }
            let pageLength = 27 + segments + bodyLength
            if candidate + pageLength > window { return .cutShort }  // body cut off
            guard OggPageCRC.isValid(tail, pageStart: candidate, pageLength: pageLength) else { continue }
            return tail[candidate + 5] & 0x04 != 0 ? .whole : .withoutEndOfStream
        }
        return .whole
    }
}
