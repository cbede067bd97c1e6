import CVorbisFile

/// Turns a link's Vorbis comments (hostile bytes) into `TrackMetadata`: libvorbis's
/// `vorbis_comment` and libopusfile's `OpusTags`, which hold the same comment list (Ogg Opus
/// carries Vorbis comments, RFC 7845 section 5.2).
enum VorbisCommentReader {
    /// Which loudness tags a link's codec defines.
    enum GainTags {
        /// Vorbis: REPLAYGAIN_TRACK_GAIN and the like, in dB against ReplayGain's reference.
        case replayGain
        /// Opus (RFC 7845 5.2.1): R128_TRACK_GAIN and R128_ALBUM_GAIN, Q7.8 dB against −23 LUFS.
        /// They are converted to ReplayGain's reference; REPLAYGAIN_* tags are ignored, as the
        /// RFC asks (they would count a gain twice).
        case r128
    }

    /// Longest text tag kept, in UTF-8 bytes; longer values are cut at a character boundary.
    static let maximumTextBytes = 1024
    /// Most ARTIST comments kept.
    static let maximumArtists = 32
    /// Most METADATA_BLOCK_PICTURE comments looked at.
    static let maximumPictureCandidates = 16
    /// Most warnings kept for one link.
    static let maximumWarnings = 16

    /// A comment's value: where it starts and how long it is (inside libvorbis's own storage).
    typealias Value = UnsafeBufferPointer<UInt8>

    static func metadata(from comment: UnsafePointer<vorbis_comment>?) -> TrackMetadata {
        guard let comment else { return TrackMetadata() }
        return metadata(
            entries: comment.pointee.user_comments, lengths: comment.pointee.comment_lengths, count: comment.pointee.comments,
            gains: .replayGain)
    }

    /// The comments `entries[i]` of `lengths[i]` bytes, `i < count` (libvorbis's and libopusfile's
    /// layout), with the loudness tags of `gains`.
    static func metadata(
        entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, lengths: UnsafeMutablePointer<Int32>?, count: Int32,
        gains gainTags: GainTags
    ) -> TrackMetadata {
        var result = TrackMetadata()
        guard let entries, let lengths else { return result }
        var warnings = Warnings()
        var pictures: [Value] = []
        var coverArt: Value?
        var coverArtMIME: Value?
        var gains = ReplayGainTags()

        for i in 0..<Int(max(0, count)) {
            guard let raw = entries[i], lengths[i] > 0 else { continue }
            let entry = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: Int(lengths[i]))
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")), equals > 0, equals <= 64 else { continue }
            let key = entry[0..<equals]
            let value = Value(rebasing: entry[(equals + 1)...])
            func keyIs(_ name: StaticString) -> Bool {
                guard key.count == name.utf8CodeUnitCount else { return false }
                return zip(key, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)).allSatisfy {
                    asciiUppercase($0) == $1
                }
            }
            if keyIs("TITLE") {
                if result.title == nil { result.title = nonBlank(text(value, tag: "TITLE", &warnings)) }
            } else if keyIs("ARTIST") {
                if result.artists.count < maximumArtists {
                    if let artist = nonBlank(text(value, tag: "ARTIST", &warnings)) { result.artists.append(artist) }
                } else {
                    warnings.add("more than \(maximumArtists) ARTIST tags; the rest are ignored")
                }
            } else if keyIs("ALBUM") {
                if result.album == nil { result.album = nonBlank(text(value, tag: "ALBUM", &warnings)) }
            } else if keyIs("ALBUMARTIST") || keyIs("ALBUM ARTIST") {
                if result.albumArtist == nil { result.albumArtist = nonBlank(text(value, tag: "ALBUMARTIST", &warnings)) }
            } else if gainTags == .r128, keyIs("R128_TRACK_GAIN") {
                if gains.trackGain == nil { gains.trackGain = number(value, tag: "R128_TRACK_GAIN", ReplayGainTags.parseR128Gain, &warnings) }
            } else if gainTags == .r128, keyIs("R128_ALBUM_GAIN") {
                if gains.albumGain == nil { gains.albumGain = number(value, tag: "R128_ALBUM_GAIN", ReplayGainTags.parseR128Gain, &warnings) }
            } else if gainTags == .replayGain, keyIs("REPLAYGAIN_TRACK_GAIN") {
                if gains.trackGain == nil { gains.trackGain = number(value, tag: "REPLAYGAIN_TRACK_GAIN", ReplayGainTags.parseGain, &warnings) }
            } else if gainTags == .replayGain, keyIs("REPLAYGAIN_TRACK_PEAK") {
                if gains.trackPeak == nil { gains.trackPeak = number(value, tag: "REPLAYGAIN_TRACK_PEAK", ReplayGainTags.parsePeak, &warnings) }
            } else if gainTags == .replayGain, keyIs("REPLAYGAIN_ALBUM_GAIN") {
                if gains.albumGain == nil { gains.albumGain = number(value, tag: "REPLAYGAIN_ALBUM_GAIN", ReplayGainTags.parseGain, &warnings) }
            } else if gainTags == .replayGain, keyIs("REPLAYGAIN_ALBUM_PEAK") {
                if gains.albumPeak == nil { gains.albumPeak = number(value, tag: "REPLAYGAIN_ALBUM_PEAK", ReplayGainTags.parsePeak, &warnings) }
            // REPLAYGAIN_* in an Opus file (`.r128`) falls through: ignored (RFC 7845 5.2.1).
            } else if keyIs("METADATA_BLOCK_PICTURE") {
                if pictures.count < maximumPictureCandidates { pictures.append(value) }
            } else if keyIs("COVERART") {
                if coverArt == nil { coverArt = value }
            } else if keyIs("COVERARTMIME") {
                if coverArtMIME == nil { coverArtMIME = value }
            }
        }
        result.replayGain = gains
        result.picture = picture(blocks: pictures, &warnings) ?? legacyPicture(coverArt, mime: coverArtMIME, &warnings)
        result.warnings = warnings.lines
        return result
    }

    // MARK: Text

    /// `text`, or nil when it is empty or only white space: `TITLE=` is a missing title on every
    /// surface (status line, notification, MPRIS), and a later non-empty `TITLE` is used instead.
    static func nonBlank(_ text: String?) -> String? {
        guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }

    /// The value as bounded, repaired text: NULs dropped, invalid UTF-8 replaced by U+FFFD, at most
    /// `maximumTextBytes` of UTF-8 cut at a character boundary (with a warning), repair included.
    static func text(_ value: Value, tag: String, _ warnings: inout Warnings) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(value.count, maximumTextBytes))
        var cut = false
        for b in value where b != 0 {
            if bytes.count == maximumTextBytes {
                cut = true
                break
            }
            bytes.append(b)
        }
        if cut {
            // Do not split a UTF-8 sequence: drop a trailing partial character.
            var lead = bytes.count - 1
            while lead > 0, bytes.count - lead < 4, bytes[lead] & 0xc0 == 0x80 { lead -= 1 }
            let b = bytes[lead]
            let expected = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
            if lead + expected > bytes.count { bytes.removeSubrange(lead...) }
            warnings.add("\(tag) longer than \(maximumTextBytes) bytes was shortened")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count > maximumTextBytes else { return text }
        // Repair turns each invalid byte into U+FFFD (3 bytes): cut again, between characters.
        var kept = String.UnicodeScalarView()
        var size = 0
        for scalar in text.unicodeScalars {
            size += UTF8.width(scalar)
            if size > maximumTextBytes { break }
            kept.append(scalar)
        }
        warnings.add("\(tag) longer than \(maximumTextBytes) bytes was shortened")
        return String(kept)
    }

    static func number(
        _ value: Value, tag: String, _ parse: (String) -> Double?, _ warnings: inout Warnings
    ) -> Double? {
        guard value.count <= 64 else {
            warnings.add("\(tag) ignored: not a number")
            return nil
        }
        let string = String(decoding: value.filter { $0 != 0 }, as: UTF8.self)
        guard let number = parse(string) else {
            warnings.add("\(tag) ignored: \"\(string)\" is not a usable value")
            return nil
        }
        return number
    }

    @inline(__always) static func asciiUppercase(_ b: UInt8) -> UInt8 {
        b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") ? b - 32 : b
    }

    // MARK: Pictures

    /// The front cover among the METADATA_BLOCK_PICTURE values, else the first usable one.
    static func picture(blocks: [Value], _ warnings: inout Warnings) -> EmbeddedPicture? {
        guard !blocks.isEmpty else { return nil }
        // The type is the first 4 bytes: decode just 8 base64 characters to sort the candidates.
        let fronts = blocks.filter { peekType($0) == 3 }
        let others = blocks.filter { peekType($0) != 3 }
        for block in fronts + others {
            // 3 bytes per 4 characters; allow the block's own fields on top of the picture limit.
            let estimated = block.count / 4 * 3
            if estimated > PictureParser.maximumBytes + (1 << 20) {
                warnings.add(
                    "picture of \(PictureParser.megabytes(estimated)) ignored (limit \(PictureParser.megabytes(PictureParser.maximumBytes)))")
                continue
            }
            guard let decoded = PictureParser.base64Decode(bytes: block, limit: Int.max) else {
                warnings.add("embedded picture ignored: METADATA_BLOCK_PICTURE is not valid base64")
                continue
            }
            do {
                return try PictureParser.parse(decoded)
            } catch {
                warnings.add(error.description)
            }
        }
        return nil
    }

    static func peekType(_ block: Value) -> UInt32? {
        guard block.count >= 8, let head = PictureParser.base64Decode(bytes: Value(rebasing: block[0..<8]), limit: 4),
            head.count == 4
        else { return nil }
        return head.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// The legacy COVERART (base64 image bytes) with COVERARTMIME.
    static func legacyPicture(_ coverArt: Value?, mime: Value?, _ warnings: inout Warnings) -> EmbeddedPicture? {
        guard let coverArt, !coverArt.isEmpty else { return nil }
        let estimated = coverArt.count / 4 * 3
        if estimated > PictureParser.maximumBytes {
            warnings.add(
                "picture of \(PictureParser.megabytes(estimated)) ignored (limit \(PictureParser.megabytes(PictureParser.maximumBytes)))")
            return nil
        }
        guard let bytes = PictureParser.base64Decode(bytes: coverArt, limit: Int.max), !bytes.isEmpty else {
            warnings.add("embedded picture ignored: COVERART is not valid base64")
            return nil
        }
        let declared = mime.map { Array($0.prefix(PictureParser.maximumMIMELength + 1)) } ?? []
        return EmbeddedPicture(bytes: bytes, mime: PictureParser.mimeType(declared: declared, data: bytes), pictureType: 0)
    }

    /// Warning lines, deduplicated and bounded.
    struct Warnings {
        var lines: [String] = []
        mutating func add(_ line: String) {
            guard !lines.contains(line) else { return }
            if lines.count < maximumWarnings {
                lines.append(line)
            }
        }
    }
}
