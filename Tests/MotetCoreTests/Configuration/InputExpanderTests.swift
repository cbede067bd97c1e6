import Foundation
import MotetConfiguration
import MotetTestSupport
import Testing

@Suite struct InputExpanderTests {
    private func touch(_ path: String, _ text: String = "x") throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func directoriesAreSearchedRecursivelyInNaturalOrder() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        for name in [
            "a.ogg", "b/10.ogg", "b/2.ogg", "b/cover.jpg", "b/notes.txt", "b/Track.OGA", "b/x.ogg/inner.ogg",
            "sub/deeper/1.ogg", ".hidden.ogg", "b/.partial.ogg", "c.mp3", "list.m3u", "b/3.opus", "d.OPUS",
        ] {
            try touch(root + "/" + name)
        }
        let result = InputExpander.expand([root])
        #expect(result.files == [
            "\(root)/a.ogg", "\(root)/b/2.ogg", "\(root)/b/3.opus", "\(root)/b/10.ogg", "\(root)/b/Track.OGA",
            "\(root)/b/x.ogg/inner.ogg", "\(root)/d.OPUS", "\(root)/sub/deeper/1.ogg",
        ])
        #expect(result.warnings.isEmpty)
    }

    @Test func aDirectoryNamedLikeAnOggFileIsSearchedNotPlayed() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try FileManager.default.createDirectory(atPath: root + "/empty.ogg", withIntermediateDirectories: true)
        let result = InputExpander.expand([root])
        #expect(result.files.isEmpty)
        #expect(result.warnings == ["motet: skipping '\(root)': no .ogg, .oga or .opus files in this directory."])
        let direct = InputExpander.expand([root + "/empty.ogg"])
        #expect(direct.files.isEmpty)
        #expect(direct.warnings == ["motet: skipping '\(root)/empty.ogg': no .ogg, .oga or .opus files in this directory."])
    }

    @Test func aPlaylistThatListsNothingIsNamed() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/empty.m3u", "#EXTM3U\n# nothing here\n")
        try touch(root + "/empty.pls", "[playlist]\nNumberOfEntries=0\nVersion=2\n")
        try touch(root + "/a.ogg")
        let result = InputExpander.expand([root + "/empty.m3u", root + "/empty.pls", root + "/a.ogg"])
        #expect(result.files == [root + "/a.ogg"])
        #expect(result.warnings == [
            "motet: skipping '\(root)/empty.m3u': it lists nothing (no entries); add some, or check that it is the right file.",
            "motet: skipping '\(root)/empty.pls': it lists nothing (no entries); add some, or check that it is the right file.",
        ])
    }

    @Test func filesAreKeptAsGivenWhateverTheirName() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/song.flac")
        try touch(root + "/z.ogg")
        let result = InputExpander.expand([root + "/z.ogg", root + "/song.flac"])
        #expect(result.files == [root + "/z.ogg", root + "/song.flac"])
    }

    @Test func missingInputsWarnAndAreSkipped() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/ok.ogg")
        let result = InputExpander.expand([root + "/gone.ogg", root + "/ok.ogg", "", root + "/ok.ogg/child"])
        #expect(result.files == [root + "/ok.ogg"])
        #expect(result.warnings == [
            "motet: skipping '\(root)/gone.ogg': no such file or directory (check the name and path).",
            "motet: skipping '': an empty name is not a file; remove it.",
            "motet: skipping '\(root)/ok.ogg/child': not a directory (check the path and its permissions).",
        ])
    }

    @Test func fileURLsArePathsHTTPURLsAreTracksAndOtherURLsAreRefused() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/a b.ogg")
        let result = InputExpander.expand([
            "file://\(root)/a%20b.ogg", "https://example.com/x.ogg", "HTTP://Radio.Example:8000/live", "ftp://example.com/x.ogg",
            "http://user:secret@:80/",
        ])
        #expect(result.files == [root + "/a b.ogg", "https://example.com/x.ogg", "http://radio.example:8000/live"])
        #expect(result.warnings == [
            "motet: skipping 'ftp://example.com/x.ogg': Motet plays http://, https:// and file:// URLs, not ftp:; use another program for it or remove it.",
            "motet: skipping 'http://user:secret@:80/': the URL has no host name; write it as http://HOST/PATH.",
        ])
    }

    @Test func directoryLinkLoopsAreNotFollowed() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/d/1.ogg")
        try FileManager.default.createSymbolicLink(atPath: root + "/d/back", withDestinationPath: root + "/d")
        let result = InputExpander.expand([root + "/d"])
        #expect(result.files == [root + "/d/1.ogg"])
        #expect(result.warnings == ["motet: skipping '\(root)/d/back': a link back to a directory that contains it (a loop); not following it."])
    }

    @Test func playlistEntriesAreRelativeToThePlaylist() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/music/songs/a.ogg")
        try touch(root + "/elsewhere/b.ogg")
        try touch(root + "/music/album/2.ogg")
        try touch(root + "/music/album/10.ogg")
        try touch(root + "/music/with space.ogg")
        try touch(root + "/music/list.m3u8", """
            \u{FEFF}#EXTM3U\r
            #EXTINF:123,Artist - Title\r
            songs/a.ogg\r
            \r
              \(root)/elsewhere/b.ogg  \r
            album\r
            file://\(root.replacingOccurrences(of: " ", with: "%20"))/music/with%20space.ogg\r
            """)
        let result = InputExpander.expand([root + "/music/list.m3u8"])
        #expect(result.files == [
            "\(root)/music/songs/a.ogg", "\(root)/elsewhere/b.ogg", "\(root)/music/album/2.ogg", "\(root)/music/album/10.ogg",
            "\(root)/music/with space.ogg",
        ])
        #expect(result.warnings.isEmpty)
    }

    @Test func missingPlaylistEntriesWarnWithLineNumbersAndURLsAreKept() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/a.ogg")
        try touch(root + "/list.m3u", "a.ogg\n# comment\nmissing.ogg\nhttp://radio.example/stream\na.ogg\ngopher://x/y\n")
        let result = InputExpander.expand([root + "/list.m3u"])
        #expect(result.files == [root + "/a.ogg", "http://radio.example/stream", root + "/a.ogg"])
        #expect(result.warnings == [
            "motet: \(root)/list.m3u:3: skipping '\(root)/missing.ogg': no such file or directory (check the name and path).",
            "motet: \(root)/list.m3u:6: skipping 'gopher://x/y': Motet plays http://, https:// and file:// URLs, not gopher:; use another program for it or remove it.",
        ])
    }

    @Test func aPlaylistIncludingItselfIsReadOnce() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/a.ogg")
        try touch(root + "/b.ogg")
        try touch(root + "/self.m3u", "a.ogg\nself.m3u\nb.ogg\n")
        let result = InputExpander.expand([root + "/self.m3u"])
        #expect(result.files == [root + "/a.ogg", root + "/b.ogg"])
        #expect(result.warnings == ["motet: \(root)/self.m3u:2: skipping '\(root)/self.m3u': this playlist includes itself; not following it again."])
    }

    @Test func aCycleThroughTwoPlaylistsIsCaught() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        try touch(root + "/a.ogg")
        try touch(root + "/b.ogg")
        try touch(root + "/one.m3u", "a.ogg\nsub/two.m3u\n")
        try touch(root + "/sub/two.m3u", "../b.ogg\n../one.m3u\n")
        let result = InputExpander.expand([root + "/one.m3u"])
        #expect(result.files == [root + "/a.ogg", root + "/sub/../b.ogg"])
        #expect(result.warnings == ["motet: \(root)/sub/two.m3u:2: skipping '\(root)/sub/../one.m3u': this playlist includes itself; not following it again."])
        // The same playlist twice in a row is not a cycle.
        let twice = InputExpander.expand([root + "/sub/two.m3u", root + "/sub/two.m3u"])
        #expect(twice.files.filter { $0.hasSuffix("b.ogg") }.count == 2)
    }

    @Test func controlCharactersInNamesAreEscapedInWarnings() throws {
        let result = InputExpander.expand(["/nonexistent/\u{1B}[31mred.ogg"])
        #expect(result.warnings == ["motet: skipping '/nonexistent/\\x1B[31mred.ogg': no such file or directory (check the name and path)."])
    }

    @Test func aDashReadsTheListOfFilesFromStandardInputOnce() throws {
        let root = try Paths.temporaryDirectory("motet-inputs")
        for name in ["a.ogg", "b.ogg", "dir/c.ogg", "before.ogg"] { try touch(root + "/" + name) }
        var reads = 0
        let list = "\(root)/b.ogg\r\n\n# a comment\n\(root)/dir\n\(root)/a.ogg\n\(root)/missing.ogg\n"
        let result = InputExpander.expand(["\(root)/before.ogg", "-", "-"]) {
            reads += 1
            return Array(list.utf8)
        }
        #expect(reads == 1)
        #expect(result.files == ["\(root)/before.ogg", "\(root)/b.ogg", "\(root)/dir/c.ogg", "\(root)/a.ogg"])
        #expect(result.warnings == [
            "motet: standard input:6: skipping '\(root)/missing.ogg': no such file or directory (check the name and path).",
            "motet: skipping 'standard input': read once already; a second '-' adds nothing.",
        ])
    }
}
