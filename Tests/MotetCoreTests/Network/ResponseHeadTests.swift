import MotetEvents
import MotetNetwork
import Testing

/// The header of an HTTP response, line by line (`ResponseHead`), and what the content is
/// (`ContentCheck`): pure functions.
@Suite struct ResponseHeadTests {
    static func head(_ text: String) -> ResponseHead { ResponseHead.parse(Array(text.utf8)) }

    @Test func anIcecastStationIsLiveWithItsStationFields() {
        let h = Self.head(
            "HTTP/1.0 200 OK\r\nContent-Type: audio/ogg\r\nicy-name: Radio Motet\r\nicy-description: Songs \u{1B}[31mall day\r\n"
                + "icy-genre: Classical\r\nicy-url: https://radio.example/\r\nicy-br: 128\r\nCache-Control: no-cache\r\n\r\n")
        #expect(h.status == 200 && h.isComplete)
        #expect(h.isStation && h.isLive && !h.isSeekable)
        #expect(h.station == StationInfo(name: "Radio Motet", description: "Songs [31mall day", genre: "Classical", homepage: "https://radio.example/"))
        #expect(h.bitrateKbps == 128)
        #expect(h.contentType == "audio/ogg")
    }

    @Test func aFileWithLengthAndRangesIsSeekableAndAShoutcastLineIsAStation() {
        let file = Self.head("HTTP/1.1 200 OK\r\nContent-Length: 12345\r\nAccept-Ranges: bytes\r\ncontent-type: Audio/Ogg\r\n\r\n")
        #expect(file.isSeekable && !file.isLive && file.contentLength == 12345 && file.contentType == "audio/ogg")
        #expect(!Self.head("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n").isSeekable)
        #expect(Self.head("HTTP/1.1 200 OK\r\nAccept-Ranges: bytes\r\n\r\n").isLive)
        let shoutcast = Self.head("ICY 200 OK\r\nicy-name:Old School\r\n\r\n")
        #expect(shoutcast.status == 200 && shoutcast.isStation && shoutcast.station.name == "Old School")
        let partial = Self.head("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 100-199/200\r\nContent-Length: 100\r\n\r\n")
        #expect(partial.rangeStart == 100 && partial.rangeTotal == 200)
    }

    @Test func aRedirectStartsOverAndTheLastResponseCounts() {
        let h = Self.head("HTTP/1.1 302 Found\r\nLocation: /x\r\nicy-name: Wrong\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n")
        #expect(h.status == 404 && h.reason == "Not Found" && !h.isStation && h.station.isEmpty)
    }

    @Test func stationTextIsCleanedAndCutAndAnEndlessHeaderIsTooLong() {
        let long = String(repeating: "é", count: 1000)
        let h = Self.head("HTTP/1.1 200 OK\r\nicy-name: \u{7}\t \(long)\r\nicy-genre: \u{85}\u{1}\r\n\r\n")
        #expect(h.station.name?.count == ResponseHead.maximumFieldLength)
        #expect(h.station.name?.unicodeScalars.allSatisfy { $0.value >= 0x20 } == true)
        #expect(h.station.genre == nil)
        let endless = Self.head("HTTP/1.1 200 OK\r\nX-A: " + String(repeating: "a", count: ResponseHead.maximumBytes) + "\r\n\r\n")
        #expect(endless.isTooLong && !endless.isComplete)
    }

    @Test func contentTypesAndFirstBytesSayWhatTheStreamIs() {
        #expect(ContentCheck.rejectType("audio/mpeg") == .otherFormat("an MP3 stream", contentType: "audio/mpeg"))
        #expect(ContentCheck.rejectType("audio/aacp") == .otherFormat("an AAC stream", contentType: "audio/aacp"))
        // Ogg Opus is played: the decoder tells it from Vorbis by the first packet.
        #expect(ContentCheck.rejectType("audio/ogg; codecs=opus") == nil)
        #expect(ContentCheck.rejectType("audio/opus") == nil)
        #expect(ContentCheck.rejectType("text/html; charset=utf-8") == .webPage(contentType: "text/html"))
        #expect(ContentCheck.rejectType("audio/x-scpls") == .playlist(.pls, contentType: "audio/x-scpls"))
        #expect(ContentCheck.rejectType("Audio/X-MpegURL; charset=utf-8") == .playlist(.m3u, contentType: "audio/x-mpegurl"))
        #expect(ContentCheck.rejectType("application/xspf+xml") == .playlist(.xspf, contentType: "application/xspf+xml"))
        for fine in [nil, "audio/ogg", "application/ogg", "audio/vorbis", "application/octet-stream"] {
            #expect(ContentCheck.rejectType(fine) == nil, "\(fine ?? "nil")")
        }
        let opus = Array("OggS".utf8) + [UInt8](repeating: 0, count: 24) + Array("OpusHead".utf8)
        #expect(ContentCheck.describeRefused(opus, contentType: "audio/ogg") == .otherFormat("a damaged Ogg Opus stream", contentType: "audio/ogg"))
        #expect(ContentCheck.describeRefused(Array("ID3\u{4}".utf8), contentType: nil) == .otherFormat("an MP3 stream", contentType: "no content type"))
        #expect(ContentCheck.describeRefused([0xFF, 0xF1, 0x50], contentType: nil) == .otherFormat("an AAC stream", contentType: "no content type"))
        // The bytes say what it is; the type is what the server calls it, not the page's type.
        let page = ContentCheck.describeRefused(Array("\n <!DOCTYPE html><html>".utf8), contentType: "audio/ogg")
        #expect(page.problem.hasPrefix("this is a web page (sent as audio/ogg), not an audio stream — "), "\(page.problem)")
        let mp3 = ContentCheck.describeRefused(Array("ID3\u{4}".utf8), contentType: "application/ogg")
        #expect(mp3.problem.hasPrefix("this is an MP3 stream (sent as application/ogg); Motet plays Ogg Vorbis"), "\(mp3.problem)")
        #expect(ContentCheck.describeRefused([1, 2, 3, 4], contentType: nil) == .notOgg)
    }

    @Test func errorsAreOneLineNamingTheURLAndWhatToDo() {
        let url = "http://radio.example/live.mp3"
        #expect(NetworkError.otherFormat("an MP3 stream", contentType: "audio/mpeg").line(url: url)
            == "http://radio.example/live.mp3: this is an MP3 stream (audio/mpeg); Motet plays Ogg Vorbis and Ogg Opus — pick the station's Ogg stream")
        #expect(NetworkError.httpStatus(404, "Not Found").line(url: url) == "\(url): the server answered 404 Not Found — check the address")
        for error: NetworkError in [.hostNotFound("radio.example"), .redirectLoop, .headerTooLong, .notOgg, .timedOut, .tls("expired"), .gaveUp(after: .seconds(60), cause: .transfer("reset"))] {
            let line = error.line(url: url)
            #expect(line.hasPrefix(url + ": ") && line.contains(" — ") && !line.contains("\n"), "\(line)")
        }
    }

    @Test func theBackOffDoublesFromOneSecondUpToThirty() {
        #expect((0..<8).map(NetworkOptions.backoff) == [1, 2, 4, 8, 16, 30, 30, 30].map { .seconds($0) })
    }

    @Test func whatIsFetchedOverTheNetworkIsAnHTTPOrHTTPSURL() {
        #expect(WebAddress.isRemote("HTTPS://x/y") && WebAddress.isRemote("http://x"))
        #expect(!WebAddress.isRemote("httpx://a") && !WebAddress.isRemote("/http://") && !WebAddress.isRemote("file:///a.ogg"))
        #expect(!WebAddress.isRemote("http:song.ogg") && !WebAddress.isRemote("notes: a.ogg"))
        #expect(WebAddress("http://user@Radio.example:8000/live")?.host == "radio.example")
    }
}
