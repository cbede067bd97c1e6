import Foundation
import MotetConfiguration
import MotetTestSupport
import Testing

/// Random bytes and random arguments never crash the parsers: each input either parses or gives one
/// `motet: ` line with exit code 64 (or warnings, for playlists).
@Suite struct HostileInputTests {
    /// A reproducible generator (xorshift), so a failure can be replayed.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }

    /// Bytes biased towards the characters the grammars care about.
    private func hostileBytes(_ count: Int, _ g: inout Generator) -> [UInt8] {
        let interesting: [UInt8] = Array("=[]#;:,\\/\"\r\n\t pluginvolume.ogg%".utf8) + [0, 0x1B, 0xFF, 0xC3, 0xEF, 0xBB, 0xBF]
        return (0..<count).map { _ in
            Bool.random(using: &g) ? interesting.randomElement(using: &g)! : UInt8.random(in: 0...255, using: &g)
        }
    }

    @Test func randomConfigFilesParseOrFailWithOneLine() throws {
        var g = Generator(state: 0x9E37_79B9_7F4A_7C15)
        let dir = try Paths.temporaryDirectory("motet-hostile")
        for round in 0..<300 {
            let path = dir + "/c\(round).conf"
            try Data(hostileBytes(Int.random(in: 0...400, using: &g), &g)).write(to: URL(fileURLWithPath: path))
            do {
                _ = try Options.parse(["--config", path, "a.ogg"], environment: isolatedEnvironment)
            } catch {
                #expect(error.description.hasPrefix("motet: "))
                #expect(!error.description.contains("\n") && !error.description.contains("\u{1B}"))
                #expect(error.exitCode == 64)
            }
        }
    }

    @Test func randomArgumentsParseOrFailWithOneLine() {
        var g = Generator(state: 0xDEAD_BEEF_CAFE_F00D)
        let words = ["--plugin", "--volume", "-o", "--", "--start", "-", "--output=", "log:a\\=b", "/x/y.so:k=v", "--untimed", "-h"]
        for _ in 0..<2000 {
            let arguments = (0..<Int.random(in: 0...6, using: &g)).map { _ -> String in
                Bool.random(using: &g)
                    ? words.randomElement(using: &g)!
                    : String(decoding: hostileBytes(Int.random(in: 0...12, using: &g), &g), as: UTF8.self)
            }
            do {
                _ = try Options.parse(arguments, environment: isolatedEnvironment)
            } catch {
                #expect(error.description.hasPrefix("motet: ") && !error.description.contains("\n"), "\(arguments)")
            }
        }
    }

    @Test func randomPlaylistsGiveWarningsNotCrashes() throws {
        var g = Generator(state: 0x0123_4567_89AB_CDEF)
        let dir = try Paths.temporaryDirectory("motet-hostile")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/a.ogg"))
        for round in 0..<200 {
            let path = dir + "/p\(round).m3u"
            try Data(Array("a.ogg\n".utf8) + hostileBytes(Int.random(in: 0...300, using: &g), &g))
                .write(to: URL(fileURLWithPath: path))
            let result = InputExpander.expand([path])
            #expect(result.files.first == dir + "/a.ogg")
            for warning in result.warnings {
                #expect(warning.hasPrefix("motet: ") && !warning.contains("\n") && !warning.contains("\u{1B}"))
            }
        }
    }

    @Test func randomPlsAndXspfPlaylistsGiveOneLineWarningsNotCrashes() throws {
        var g = Generator(state: 0x0F1E_2D3C_4B5A_6978)
        let dir = try Paths.temporaryDirectory("motet-hostile")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/a.ogg"))
        let pieces = ["[playlist]\n", "File", "=", "<track>", "<location>", "</location>", "</track>", "&#27;", "&amp;", "<![CDATA[", "]]>", "http://", "file:///", "../"]
        for round in 0..<200 {
            let ext = round % 2 == 0 ? "pls" : "xspf"
            let head = ext == "pls" ? "[playlist]\nFile1=a.ogg\n" : "<trackList><track><location>a.ogg</location></track>"
            var body = Array(head.utf8)
            for _ in 0..<Int.random(in: 0...40, using: &g) {
                body += Bool.random(using: &g) ? Array(pieces.randomElement(using: &g)!.utf8) : hostileBytes(Int.random(in: 0...8, using: &g), &g)
            }
            let path = dir + "/p\(round).\(ext)"
            try Data(body).write(to: URL(fileURLWithPath: path))
            let result = InputExpander.expand([path], fetch: { _, _ in .failure(CancellationError()) })
            #expect(result.files.contains(dir + "/a.ogg"), "\(path)")
            for warning in result.warnings {
                #expect(warning.hasPrefix("motet: ") && !warning.contains("\n") && !warning.contains("\u{1B}"), "\(warning)")
            }
        }
    }
}
