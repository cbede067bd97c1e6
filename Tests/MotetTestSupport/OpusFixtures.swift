import Foundation

/// Ogg Opus fixtures made by real tools (sox, opusenc, ffmpeg) in a test's directory, and the
/// reference decode they are compared with.
extension Fixtures {
    /// The encoder that makes an Opus fixture.
    public enum OpusEncoder: Sendable {
        /// opus-tools' `opusenc` (libopusenc).
        case opusenc
        /// ffmpeg's `libopus` encoder, muxed by ffmpeg's Ogg muxer.
        case ffmpeg
    }

    /// Makes an Ogg Opus file from a generated 48 kHz WAV (`synth` as for `wav`). `bitrate` in
    /// kbit/s; `comments` are raw "KEY=value" comments; `serial` sets the stream's serial number.
    public static func opus(
        _ path: String, seconds: Double, channels: Int = 2, synth: [String] = ["sine", "200-2000"], bitrate: Int = 96,
        encoder: OpusEncoder = .opusenc, tags: Tags = Tags(), serial: Int? = nil
    ) throws {
        let wavPath = path + ".src.wav"
        try wav(wavPath, seconds: seconds, rate: 48000, channels: channels, synth: synth)
        defer { try? FileManager.default.removeItem(atPath: wavPath) }
        try opus(path, from: wavPath, bitrate: bitrate, encoder: encoder, tags: tags, serial: serial)
    }

    /// Encodes the WAV `source` as Ogg Opus at `path`.
    public static func opus(
        _ path: String, from source: String, bitrate: Int = 96, encoder: OpusEncoder = .opusenc, tags: Tags = Tags(),
        serial: Int? = nil
    ) throws {
        var comments = tags.extra
        if let t = tags.title { comments.append("TITLE=\(t)") }
        comments += tags.artists.map { "ARTIST=\($0)" }
        if let l = tags.album { comments.append("ALBUM=\(l)") }
        switch encoder {
        case .opusenc:
            var argv = ["opusenc", "--quiet", "--bitrate", "\(bitrate)"]
            for c in comments { argv += ["--comment", c] }
            if let serial { argv += ["--serial", "\(serial)"] }
            try Shell.check(argv + [source, path])
        case .ffmpeg:
            var argv = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", source, "-c:a", "libopus", "-b:a", "\(bitrate)k"]
            // ffmpeg's libopus wrapper needs a channel layout it knows (5.1 is "5.1(side)" from a WAV).
            if (try? Shell.run(["soxi", "-c", source]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == "6" {
                argv += ["-af", "aformat=channel_layouts=5.1"]
            }
            for c in comments { argv += ["-metadata", c] }
            if let serial { argv += ["-serial_offset", "\(serial)"] }
            try Shell.check(argv + [path])
        }
    }

    /// Sets the output gain in the file's OpusHead (RFC 7845 5.1: Q7.8 dB, applied by every
    /// decoder), fixing the first page's checksum.
    public static func setOpusHeaderGain(_ path: String, q8: Int16) throws {
        var pages = OggPage.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        guard !pages.isEmpty, pages[0].body.starts(with: Array("OpusHead".utf8)), pages[0].body.count >= 19 else {
            throw TestError.failed("\(path) does not start with an OpusHead page")
        }
        let gain = UInt16(bitPattern: q8)
        pages[0].body[16] = UInt8(gain & 0xff)
        pages[0].body[17] = UInt8(gain >> 8)
        var data = Data()
        for page in pages { data.append(contentsOf: page.bytes) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// What one run of the reference decoder gave: raw 16-bit little-endian frames in WAV order,
    /// and each link's frames and channels.
    public struct OpusReference: Sendable {
        public var bytes: [UInt8]
        public var links: [(frames: Int, channels: Int)]
    }

    /// libopusfile's own output for `path`: a plain C loop over `op_read_float` with Motet's
    /// float→int16 conversion (`Tests/OpusReference/opus_reference.c`, built once per run).
    public static func opusReferenceDecode(_ path: String) throws -> OpusReference {
        let program = try opusReferenceProgram.get()
        let out = path + ".ref.raw"
        let links = path + ".links.txt"
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: links)
        }
        try Shell.check([program, path, out, links])
        let lines = try String(contentsOfFile: links, encoding: .utf8).split(separator: "\n")
        let parsed = lines.map { line -> (frames: Int, channels: Int) in
            let fields = line.split(separator: " ").compactMap { Int($0) }
            return (fields.first ?? 0, fields.last ?? 0)
        }
        return OpusReference(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))), links: parsed)
    }

    /// The reference decoder, compiled with cc the first time a test asks.
    private static let opusReferenceProgram = Result { try compiledProgram("OpusReference/opus_reference.c", libraries: "opusfile") }

    /// One of the tests' reference programs (`Tests/SOURCE`), compiled with cc against the
    /// pkg-config `libraries`; its path.
    static func compiledProgram(_ source: String, libraries: String) throws -> String {
        let name = String(source.split(separator: "/").last!.dropLast(2))
        let program = try Paths.temporaryDirectory("motet-\(name)") + "/" + name
        try Shell.check([
            "cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2", "-o", program, Paths.packageRoot + "/Tests/" + source,
        ] + pkgConfig(["--cflags", "--libs", libraries]) + ["-lm"])
        return program
    }

    /// libvorbisfile's own float samples for `path` (`Tests/VorbisReference/vorbis_float.c`):
    /// interleaved, and the first link's rate and channels.
    public static func vorbisFloatDecode(_ path: String) throws -> (rate: Int, channels: Int, samples: [Float]) {
        let program = try vorbisFloatProgram.get()
        let out = path + ".float.raw"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let fields = try Shell.check([program, path, out]).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (fields.first ?? 0, fields.count > 1 ? fields[1] : 0, samples)
    }

    private static let vorbisFloatProgram = Result { try compiledProgram("VorbisReference/vorbis_float.c", libraries: "vorbisfile") }

    private static func pkgConfig(_ arguments: [String]) throws -> [String] {
        try Shell.run(["pkg-config"] + arguments).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }
}
