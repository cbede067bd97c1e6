import Foundation
import Testing
@testable import MotetPlayback
import MotetDecoding
import MotetEvents
import MotetNetwork
import MotetTestSupport

/// Errors travel typed from the decoder thread to the control thread, which alone turns them into
/// the user's line: the same line for the terminal and for the delegates.
@Suite struct TypedErrorReportTests {
    /// A URL the server does not have: the report carries the server's status as a value, not a line.
    @Test func aMissingURLsReportCarriesTheServersStatus() throws {
        let server = try FaultyHTTPServer(directory: try Paths.temporaryDirectory("motet-typed"))
        defer { server.stop() }
        let url = server.url("missing.ogg")
        var thrown: DecoderError?
        do {
            _ = try OggDecoding.open(url: url, options: NetworkOptions(), notice: { _ in }, opened: { _ in })
        } catch {
            thrown = error
        }
        let error = try #require(thrown)
        let report = DecoderReport.openFailed(path: url, orderPosition: 0, error: error, listedIn: nil)
        switch report {
        case .openFailed(_, _, .network(.httpStatus(let status, let reason), let code), _):
            #expect(status == 404)
            #expect(reason == "Not Found")
            #expect(code == DecoderError.motetCode)
        default:
            Issue.record("the report carries \(report), not the server's status")
        }

        let rig = PlayerRig(files: [url])
        rig.machine.handle(inbox: [.decoder(report)], output: [])
        let line = "\(url): the server answered 404 Not Found — check the address"
        #expect(rig.allMessages == ["motet: " + line])
        let delegates = rig.allEvents.compactMap { if case .decodeError(let e) = $0 { e } else { nil } }
        #expect(delegates.map(\.message) == [line])
        #expect(delegates.map(\.code) == [DecoderError.motetCode])
    }

    /// An entry of a playlist names the playlist, on both surfaces; a URL's credentials on neither.
    @Test func theLineIsMadeOnceForBothSurfaces() {
        let secret = "http://listener:s3cret@radio.example/song.ogg"
        let rig = PlayerRig(files: [secret])
        rig.machine.handle(
            inbox: [
                .decoder(.openFailed(path: secret, orderPosition: 0, error: .network(.notOgg, code: -132), listedIn: "http://radio.example/list.m3u")),
                .decoder(.decodeError(trackID: 7, path: "/music/a.ogg", error: .skipped(-3, atMicros: 61_250_000), positionMicros: 61_250_000, fatal: false)),
            ], output: [])
        let lines = [
            "http://radio.example/song.ogg: not an Ogg stream (unknown data) — Motet plays Ogg Vorbis and Ogg Opus; check the address (listed in http://radio.example/list.m3u)",
            "/music/a.ogg: damaged or missing data at 1:01.250 was skipped — the file is corrupt; re-copy or re-encode it",
        ]
        #expect(rig.allMessages == lines.map { "motet: " + $0 })
        let delegates = rig.allEvents.compactMap { if case .decodeError(let e) = $0 { e } else { nil } }
        #expect(delegates.map(\.message) == lines)
        #expect(delegates.map(\.code) == [-132, -3])
    }

    /// A notice is news, typed; the control thread makes its line.
    @Test func aNoticeIsRenderedOnTheControlThread() {
        let url = "http://listener:s3cret@radio.example/live.ogg"
        let rig = PlayerRig(files: [url])
        rig.machine.handle(
            inbox: [
                .decoder(.notice(.lost(.transfer("the server closed the connection"), reconnectingFor: .seconds(60)), url: url)),
                .decoder(.notice(.back, url: url)),
            ], output: [])
        #expect(
            rig.allMessages == [
                "motet: http://radio.example/live.ogg: the stream was lost (the server closed the connection); reconnecting for up to 60 s",
                "motet: http://radio.example/live.ogg: the stream is back; playing on",
            ])
    }
}
