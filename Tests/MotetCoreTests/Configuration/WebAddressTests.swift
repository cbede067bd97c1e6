import MotetEvents
import Testing
import MotetNetwork

@Suite struct WebAddressTests {
    /// RFC 3986 §5.4.1 and §5.4.2: every example, against the RFC's base.
    @Test func resolvesTheRFCExamples() {
        let base = "http://a/b/c/d;p?q"
        let examples: [(String, String)] = [
            ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            // Abnormal examples.
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
        ]
        for (reference, expected) in examples {
            #expect(WebAddress.resolve(reference, against: base) == expected, "reference \(reference)")
        }
    }

    @Test func removesDotSegmentsAsTheRFCSays() {
        #expect(WebAddress.removingDotSegments("/a/b/c/./../../g") == "/a/g")
        #expect(WebAddress.removingDotSegments("mid/content=5/../6") == "mid/6")
    }

    @Test func parsesAndNormalisesHTTPURLs() throws {
        let a = try WebAddress(parsing: "  HTTP://Radio.Example:8000/Live Stream.ogg?x=1#top \r\n")
        #expect(a.scheme == .http)
        #expect(a.host == "radio.example")
        #expect(a.port == 8000)
        #expect(a.path == "/Live%20Stream.ogg")
        #expect(a.query == "x=1")
        #expect(a.text == "http://radio.example:8000/Live%20Stream.ogg?x=1")
        #expect(try WebAddress(parsing: "https://example.com").text == "https://example.com/")
        let v6 = try WebAddress(parsing: "http://[::1]:8080/a")
        #expect(v6.host == "[::1]" && v6.port == 8080)
        #expect(try WebAddress(parsing: "http://[::1]/a").port == nil)
        #expect(try WebAddress(parsing: "http://h/café.pls").path == "/caf%C3%A9.pls")
    }

    @Test func messagesNeverShowTheUserAndPassword() throws {
        let a = try WebAddress(parsing: "https://me:s3cret@radio.example/list.pls")
        #expect(a.userInfo == "me:s3cret")
        #expect(a.text == "https://me:s3cret@radio.example/list.pls")
        #expect(a.displayText == "https://radio.example/list.pls")
        #expect("\(a)" == "https://radio.example/list.pls")
        // Relative entries keep the credentials for fetching, not for showing.
        let entry = try a.resolving("../songs/1.ogg")
        #expect(entry.text == "https://me:s3cret@radio.example/songs/1.ogg")
        #expect(entry.displayText == "https://radio.example/songs/1.ogg")
    }

    @Test func refusesWhatItCannotUseWithALineSayingWhatToDo() {
        func reason(_ text: String) -> String? {
            do {
                _ = try WebAddress(parsing: text)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason("ftp://host/x.ogg") == "Motet plays http://, https:// and file:// URLs, not ftp:; use another program for it or remove it.")
        #expect(reason("http:///x.ogg") == "the URL has no host name; write it as http://HOST/PATH.")
        #expect(reason("http://h:99999/") == "the port '99999' is not a number from 1 to 65535; fix the URL.")
        #expect(reason("http://h:8o/") == "the port '8o' is not a number from 1 to 65535; fix the URL.")
        #expect(reason("http:x.ogg") == "this URL needs '//' after 'http:'; write http://….")
        #expect(reason("http://h/a\u{1B}b") == "the URL contains a control character; fix it.")
        #expect(reason("file://server/share/x.ogg") == "only local file:// URLs are played (file:///PATH); copy the file here or write its path.")
        #expect(reason("x.ogg") == "not a URL (no scheme such as http://); write a full URL.")
        #expect(WebAddress("http://h:0/") == nil)
        // Found by the pls fuzz target: a second colon made a host that did not parse back.
        #expect(reason("http://radio.example:8000p:/x") == "the host name 'radio.example:8000p' is not valid; fix the URL.")
        #expect(reason("http://a[b/") == "the host name 'a[b' is not valid; fix the URL.")
        #expect(reason("http://[::1/") == "the host name '[:' is not valid; fix the URL.")
    }

    @Test func fileURLsArePaths() throws {
        #expect(try WebAddress(parsing: "file:///home/me/a%20b.ogg").filePath == "/home/me/a b.ogg")
        #expect(try WebAddress(parsing: "file://localhost/x.ogg").filePath == "/x.ogg")
        #expect(try WebAddress(parsing: "file:///bad%zz").filePath == nil)
        #expect(try WebAddress(parsing: "file:///nul%00").filePath == nil)
        #expect(try WebAddress(parsing: "http://h/a.ogg").filePath == nil)
    }

    @Test func theFileNameTellsAPlaylist() throws {
        #expect(try WebAddress(parsing: "http://h/dir/Radio%20List.PLS?session=1#x").lowercasedFileName == "radio list.pls")
        #expect(try WebAddress(parsing: "http://h/").lowercasedFileName == "")
        #expect(try WebAddress(parsing: "http://h").lowercasedFileName == "")
    }

    @Test func onlySchemeSlashSlashLooksLikeAURL() {
        #expect(WebAddress.looksLikeURL("http://x"))
        #expect(WebAddress.looksLikeURL("svn+ssh://x"))
        #expect(!WebAddress.looksLikeURL("C:\\music\\a.ogg"))
        #expect(!WebAddress.looksLikeURL("notes: a.ogg"))
        #expect(!WebAddress.looksLikeURL("dir/http://x"))
        #expect(!WebAddress.looksLikeURL("://x"))
        #expect(!WebAddress.looksLikeURL("1http://x"))
    }

    @Test func resolvingToAnotherSchemeIsRefused() throws {
        let base = try WebAddress(parsing: "http://a/b/list.m3u")
        #expect(throws: WebAddress.Problem.self) { try base.resolving("mms://a/stream") }
        #expect(try base.resolving("file:///music/a.ogg").filePath == "/music/a.ogg")
        #expect(try base.resolving("/abs.ogg").text == "http://a/abs.ogg")
        #expect(try base.resolving("sub dir/x.ogg").text == "http://a/b/sub%20dir/x.ogg")
    }
}
