import Foundation

/// Ogg Vorbis fixtures made by real tools (sox, oggenc, vorbiscomment) in a test's directory.
public enum Fixtures {
    /// Tags for `oggVorbis`. Several artists: several `ARTIST` entries.
    public struct Tags: Sendable {
        public var title: String?
        public var artists: [String]
        public var album: String?
        public var extra: [String]  // raw "KEY=value" comments

        public init(title: String? = nil, artists: [String] = [], album: String? = nil, extra: [String] = []) {
            self.title = title
            self.artists = artists
            self.album = album
            self.extra = extra
        }
    }

    /// Makes a 16-bit WAV with sox: `synth` is sox's synth arguments after the duration,
    /// e.g. `["sine", "440"]` or `["sine", "200-2000"]` (a sweep, best for alignment).
    public static func wav(
        _ path: String, seconds: Double, rate: Int = 44100, channels: Int = 2, synth: [String] = ["sine", "440"]
    ) throws {
        try Shell.check(
            ["sox", "-n", "-r", "\(rate)", "-c", "\(channels)", "-b", "16", path, "synth", "\(seconds)"] + synth
                + ["vol", "0.5"])
    }

    /// Makes an Ogg Vorbis file with oggenc from a generated WAV.
    public static func oggVorbis(
        _ path: String, seconds: Double, rate: Int = 44100, channels: Int = 2, synth: [String] = ["sine", "440"],
        tags: Tags = Tags(), serial: Int? = nil, quality: Int = 3
    ) throws {
        let wavPath = path + ".src.wav"
        try wav(wavPath, seconds: seconds, rate: rate, channels: channels, synth: synth)
        var argv = ["oggenc", "-Q", "-q", "\(quality)"]
        if let t = tags.title { argv += ["-t", t] }
        // oggenc applies each -a to one input file: several artists go in as ARTIST comments.
        for a in tags.artists { argv += ["-c", "ARTIST=\(a)"] }
        if let l = tags.album { argv += ["-l", l] }
        for c in tags.extra { argv += ["-c", c] }
        if let serial { argv += ["-s", "\(serial)"] }
        argv += [wavPath, "-o", path]
        try Shell.check(argv)
        try? FileManager.default.removeItem(atPath: wavPath)
    }

    /// Concatenates Ogg files into one chained (multi-link) file.
    public static func chain(_ parts: [String], into path: String) throws {
        var data = Data()
        for p in parts { data.append(try Data(contentsOf: URL(fileURLWithPath: p))) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Decodes with libvorbisfile's own tool (oggdec, raw 16-bit little-endian) — the reference
    /// that Motet's output must equal.
    public static func referenceDecode(_ path: String) throws -> [UInt8] {
        let out = path + ".ref.raw"
        try Shell.check(["oggdec", "-Q", "-R", "-b", "16", "-e", "0", "-s", "1", "-o", out, path])
        defer { try? FileManager.default.removeItem(atPath: out) }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// A FLAC PICTURE block (as in METADATA_BLOCK_PICTURE), big-endian fields.
    public static func pictureBlock(
        type: UInt32 = 3, mime: String, description: String = "", width: UInt32 = 1, height: UInt32 = 1,
        data: [UInt8]
    ) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
        var b: [UInt8] = []
        b += be(type)
        b += be(UInt32(mime.utf8.count)) + Array(mime.utf8)
        b += be(UInt32(description.utf8.count)) + Array(description.utf8)
        b += be(width) + be(height) + be(24) + be(0)
        b += be(UInt32(data.count)) + data
        return b
    }

    /// Adds comments (raw "KEY=value" lines) to an existing Ogg Vorbis file with vorbiscomment,
    /// through a file so that values larger than one argv string work.
    public static func addComments(_ path: String, _ comments: [String]) throws {
        let list = path + ".comments.txt"
        try comments.joined(separator: "\n").appending("\n").write(toFile: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: list) }
        try Shell.check(["vorbiscomment", "-a", "-R", "-c", list, path])
    }
}
