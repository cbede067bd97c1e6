import Foundation
import MotetTestSupport
import Testing

/// Ogg Vorbis over HTTP from a real server on 127.0.0.1 (`FaultyHTTPServer`): bit-exact to the
/// local decode, after a seek (a Range request) and after a forced disconnect (a Range resume).
@Suite struct NetworkPlaybackTests {
    /// A fixture of about `seconds` of pink noise (≈ 12 KB/s at quality 3) in a served directory.
    static func served(_ run: MotetRun, seconds: Double = 6, title: String = "Over The Air") throws -> (FaultyHTTPServer, String) {
        let dir = run.path("www")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Fixtures.oggVorbis(dir + "/song.ogg", seconds: seconds, synth: ["pinknoise"], tags: .init(title: title, artists: ["Band"]))
        return (try FaultyHTTPServer(directory: dir), dir + "/song.ogg")
    }

    @Test func aServedFileIsBitExactAgainstTheLocalDecodeAndNamesMotetAsItsAgent() throws {
        let run = try MotetRun()
        let (server, local) = try Self.served(run)
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", server.url("song.ogg")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Over The Air (ok, completed)"), "\(r.stdout)")
        #expect(try wavData(out).data == Fixtures.referenceDecode(local))
        let requests = server.requests()
        #expect(!requests.isEmpty && requests.allSatisfy { $0.userAgent.hasPrefix("Motet/") }, "\(requests)")
    }

    @Test func aBodyWithoutALengthOrRangesPlaysOnceToItsEnd() throws {
        let run = try MotetRun()
        let (server, local) = try Self.served(run, seconds: 2, title: "Unsized")
        let out = run.path("out.wav")
        let r = try run.run(
            ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", server.url("song.ogg?nolength=1&noranges=1")], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "Playing: Unsized").count == 2, "\(r.stdout)")
        #expect(!r.stderr.contains("lost"), "\(r.stderr)")
        #expect(try wavData(out).data == Fixtures.referenceDecode(local))
        #expect(server.requests().count == 1, "\(server.requests())")
    }

    @Test func aSeekIsARangeRequestAndStaysBitExact() throws {
        let run = try MotetRun()
        let (server, local) = try Self.served(run)
        let viaHTTP = run.path("http.wav"), viaFile = run.path("file.wav")
        let r = try run.run(["--output", "wav:\(viaHTTP)", "--untimed", "--no-config", "--start", "3.2", server.url("song.ogg")])
        #expect(r.status == 0, "\(r.stderr)")
        let l = try run.run(["--output", "wav:\(viaFile)", "--untimed", "--no-config", "--start", "3.2", local])
        #expect(l.status == 0, "\(l.stderr)")
        let http = try wavData(viaHTTP).data, file = try wavData(viaFile).data
        #expect(!http.isEmpty && http == file, "\(http.count) vs \(file.count) bytes")
        // The seek fetched the middle of the file: a Range request that starts well inside it.
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int ?? 0
        let ranges = server.requests().compactMap { Int($0.range.dropFirst(6).prefix { $0 != "-" }) }
        #expect(ranges.contains { $0 > size / 3 && $0 < size * 2 / 3 }, "ranges \(ranges) of \(size) bytes")
    }

    @Test func aDisconnectMidFileResumesWithARangeRequestBitExact() throws {
        let run = try MotetRun()
        let (server, local) = try Self.served(run, seconds: 30)
        let size = try FileManager.default.attributesOfItem(atPath: local)[.size] as? Int ?? 0
        let cut = size / 2 + 17  // in the middle of a page
        let out = run.path("out.wav")
        let url = server.url("song.ogg?drop=\(cut)")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", url])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("\(url): the stream was lost"), "\(r.stderr)")
        #expect(r.stderr.contains("\(url): the stream is back"), "\(r.stderr)")
        #expect(server.requests().contains { $0.range == "bytes=\(cut)-" }, "\(server.requests())")
        #expect(try wavData(out).data == Fixtures.referenceDecode(local))
    }

    @Test func theProxyOfHttpProxyIsUsed() throws {
        let run = try MotetRun()
        // The test server also answers a proxy's requests (absolute URLs): the station's name
        // does not resolve, so only the proxy can have served it.
        let (proxy, local) = try Self.served(run, seconds: 1, title: "Proxied")
        let url = "http://radio.invalid/song.ogg"
        let out = run.path("out.wav")
        let r = try run.run(
            ["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", url],
            extraEnvironment: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": ""])
        #expect(r.status == 0 && r.stdout.contains("Finished: Proxied (ok, completed)"), "\(r.stdout)\(r.stderr)")
        #expect(proxy.requests().contains { $0.path == url }, "\(proxy.requests())")
        #expect(try wavData(out).data == Fixtures.referenceDecode(local))
    }

    @Test func noCoverIsLookedForBesideAURL() throws {
        let run = try MotetRun()
        let (server, local) = try Self.served(run, seconds: 6, title: "Over The Air")
        let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Array(repeating: 1, count: 100)
        // Beside the local file, a cover; and where a cover search would look for the URL's
        // ("http://127.0.0.1:PORT", a relative path from the working directory), another.
        try Data(png).write(to: URL(fileURLWithPath: (local as NSString).deletingLastPathComponent + "/cover.png"))
        let cwd = run.path("cwd")
        let lookalike = cwd + "/http:/127.0.0.1:\(server.port)"
        try FileManager.default.createDirectory(atPath: lookalike, withIntermediateDirectories: true)
        try Data(png).write(to: URL(fileURLWithPath: lookalike + "/cover.png"))
        func artwork(_ input: String) throws -> Any? {
            let state = run.path("state-\(input.hashValue).json")
            let p = try SpawnedProcess(
                ["sh", "-c", "cd \"$0\" && exec \"$1\" --output null --no-config --status quiet --plugin json:path=\"$2\" \"$3\"",
                 cwd, Paths.motet, state, input], environment: run.environment)
            defer { p.stop() }
            var snapshot: [String: Any]?
            _ = try Shell.waitUntil(timeout: 20) {
                snapshot = JSONDelegateFiles.state(state)
                return snapshot?["title"] as? String == "Over The Air"
            }
            #expect(snapshot?["title"] as? String == "Over The Air", "\(String(describing: snapshot))")
            return snapshot?["artwork"]
        }
        #expect(try artwork(local) is [String: Any], "the cover beside the local file was not found")
        #expect(try artwork(server.url("song.ogg")) is NSNull, "a cover was looked for beside the URL")
    }

    @Test func libcurlIsMappedOnlyWhenAnInputIsAURL() throws {
        let run = try MotetRun()
        let (server, local) = try Self.served(run, seconds: 30)
        func mapsAndRSS(_ input: String) throws -> (curl: Bool, rssKiB: Int) {
            let p = try SpawnedProcess([Paths.motet, "--output", "null", "--no-config", "--status", "quiet", input], environment: run.environment)
            defer { p.stop() }
            Thread.sleep(forTimeInterval: 2.5)
            #expect(p.isRunning)
            // cat: Foundation reads /proc files by their (zero) size and gets only a part.
            let maps = try Shell.run(["cat", "/proc/\(p.pid)/maps"]).stdout
            let status = try Shell.run(["cat", "/proc/\(p.pid)/status"]).stdout
            let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
            return (maps.contains("libcurl"), rss)
        }
        let file = try mapsAndRSS(local)
        let url = try mapsAndRSS(server.url("song.ogg"))
        #expect(!file.curl, "playing a local file maps libcurl")
        #expect(url.curl, "playing a URL does not map libcurl")
        print("NetworkPlaybackTests: RSS local \(file.rssKiB) KiB, URL \(url.rssKiB) KiB, difference \(url.rssKiB - file.rssKiB) KiB")
    }
}
