#if canImport(Glibc)
import Glibc
#endif

/// Looks at the raw bytes of a file that libvorbisfile refused or may have been cut short, to tell
/// the user what it really is.
enum OggFileInspection {
    /// What `describeNonVorbis` says of a file that does start like Ogg Vorbis.
    static let vorbisDescription = "Ogg Vorbis"

    /// What a file that libvorbisfile refused looks like, for the error line (e.g. "an Ogg FLAC file"),
    /// or `vorbisDescription` when it starts like Ogg Vorbis (so its headers are damaged or cut short).
    static func describeNonVorbis(fd: Int32) -> String? {
        let bytes = head(fd: fd)
        guard !bytes.isEmpty else { return nil }
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
        guard let packet = firstPacket(bytes) else { return "an Ogg file cut short in its first page" }
        func codec(_ magic: [UInt8]) -> Bool { packet.starts(with: magic) }
        if codec(opusHead) { return "an Ogg Opus file" }
        if codec([0x7f] + Array("FLAC".utf8)) { return "an Ogg FLAC file" }
        if codec(Array("Speex   ".utf8)) { return "an Ogg Speex file" }
        if codec([0x80] + Array("theora".utf8)) { return "an Ogg Theora (video) file" }
        if codec(Array("\u{1}vorbis".utf8)) { return vorbisDescription }
        return "an Ogg file of an unknown kind"
    }

    /// The file's first Ogg packet starts with `OpusHead` (RFC 7845): it is Ogg Opus, whatever
    /// its name.
    static func firstPacketIsOpusHead(fd: Int32) -> Bool {
        firstPacketIsOpusHead(head(fd: fd))
    }

    /// `bytes` (the start of a file or stream) start an Ogg page whose first packet is `OpusHead`.
    static func firstPacketIsOpusHead(_ bytes: some Collection<UInt8>) -> Bool {
        let bytes = Array(bytes.prefix(512))[...]
        guard bytes.starts(with: "OggS".utf8), let packet = firstPacket(bytes) else { return false }
        return packet.starts(with: opusHead)
    }

    private static let opusHead = Array("OpusHead".utf8)

    /// Whether a link of the file, after its first, starts with `OpusHead`: a chain that mixes
    /// Ogg Vorbis and Ogg Opus. Walks the page headers (their bodies are skipped, not read), at
    /// most `maximumPages`; false when the pages stop making sense.
    static func chainsOpusLink(fd: Int32, fileSize: Int64, maximumPages: Int = 1_000_000) -> Bool {
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: 27 + 255)
        var pages = 0
        while offset + 27 <= fileSize, pages < maximumPages {
            pages += 1
            let got = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            guard got >= 27, header.starts(with: "OggS".utf8) else { return false }
            let segments = Int(header[26])
            guard got >= 27 + segments else { return false }
            let body = header[27..<27 + segments].reduce(0) { $0 + Int($1) }
            let start = offset + Int64(27 + segments)
            if offset > 0, header[5] & 0x02 != 0 {  // the first page of a later link
                var magic = [UInt8](repeating: 0, count: opusHead.count)
                let read = magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
                if read == magic.count, magic == opusHead { return true }
            }
            offset = start + Int64(body)
        }
        return false
    }

    /// The first 512 bytes of the file (fewer when it is shorter; none when it cannot be read).
    private static func head(fd: Int32) -> ArraySlice<UInt8> {
        var head = [UInt8](repeating: 0, count: 512)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return head[0..<max(0, count)]
    }

    /// What the first page holds of its first packet (the page header's segment table says where
    /// it starts); nil when the page header is cut short.
    private static func firstPacket(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard bytes.count >= 27 else { return nil }
        let payload = 27 + Int(bytes[bytes.startIndex + 26])
        guard bytes.count >= payload else { return bytes[bytes.endIndex...] }
        return bytes.dropFirst(payload)
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
