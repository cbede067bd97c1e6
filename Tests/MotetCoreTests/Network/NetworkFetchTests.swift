import Foundation
import MotetNetwork
import MotetTestSupport
import Testing

/// `NetworkFetch.get`, the blocking fetch remote playlists use, against a real server on 127.0.0.1.
@Suite struct NetworkFetchTests {
    static func server() throws -> FaultyHTTPServer {
        let dir = try Paths.temporaryDirectory("motet-fetch")
        try "http://radio.example/a.ogg\nrelative.ogg\n".write(toFile: dir + "/list.m3u", atomically: true, encoding: .utf8)
        try Data(repeating: 7, count: 100_000).write(to: URL(fileURLWithPath: dir + "/big.bin"))
        return try FaultyHTTPServer(directory: dir)
    }

    @Test func aDocumentComesWithItsFinalURLTypeAndBody() throws {
        let server = try Self.server()
        let got = NetworkFetch.get(server.url("redirect?to=/list.m3u%3Ftype%3Daudio/x-mpegurl"), limit: 4096)
        let document = try got.get()
        #expect(document.finalURL == server.url("list.m3u?type=audio/x-mpegurl"))
        #expect(document.contentType == "audio/x-mpegurl")
        #expect(String(decoding: document.body, as: UTF8.self) == "http://radio.example/a.ogg\nrelative.ogg\n")
        #expect(server.requests().last?.userAgent.hasPrefix("Motet") == true)
    }

    @Test func tooLargeMissingAndLoopingDocumentsAreTypedErrors() throws {
        let server = try Self.server()
        #expect(NetworkFetch.get(server.url("big.bin"), limit: 65536).error == .documentTooLarge(limit: 65536))
        #expect(NetworkFetch.get(server.url("big.bin?nolength=1"), limit: 65536).error == .documentTooLarge(limit: 65536))
        #expect(NetworkFetch.get(server.url("status/404"), limit: 65536).error == .httpStatus(404, "Not Found"))
        #expect(NetworkFetch.get(server.url("loop"), limit: 65536).error == .redirectLoop)
        #expect(NetworkFetch.get("http://127.0.0.1:1/x.pls", limit: 100).error == .connectionFailed("connection refused"))
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
