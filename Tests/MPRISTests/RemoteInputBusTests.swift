import Foundation
import MotetTestSupport
import Testing

/// URLs on the bus, against a real HTTP server on 127.0.0.1 (`FaultyHTTPServer`): OpenUri of a
/// playlist (by its name or by its content type) plays its entries; the credentials of a URL are
/// used to fetch it and shown on no surface.
@Suite(.serialized)
struct RemoteInputBusTests {
    static let player = "org.mpris.MediaPlayer2.Player"

    /// "Listed A" (2 s) and "Listed B" (30 s), served.
    private static func served(basicAuth: String? = nil) throws -> FaultyHTTPServer {
        let dir = try Paths.temporaryDirectory("motet-mpris-www")
        try Fixtures.oggVorbis(dir + "/a.ogg", seconds: 2, tags: .init(title: "Listed A"))
        try Fixtures.oggVorbis(dir + "/b.ogg", seconds: 30, synth: ["sine", "660"], tags: .init(title: "Listed B"))
        return try FaultyHTTPServer(directory: dir, basicAuth: basicAuth)
    }

    @Test func openUriOfAPlaylistPlaysItsEntries() throws {
        let (bus, motet, client, _) = try PlayerctlTests.start(tracks: 1, seconds: 30)
        defer { motet.stop(); bus.stop() }
        #expect(motet.waitForState { $0["title"] as? String == "Track 1" })
        let server = try Self.served()
        try "[playlist]\nFile1=a.ogg\nFile2=b.ogg\nNumberOfEntries=2\n".write(
            toFile: server.directory + "/list.pls", atomically: true, encoding: .utf8)
        // B (30 s) after A (2 s): the player must still be playing when the last OpenUri comes,
        // however slow the machine (with A alone it ended its queue and exited meanwhile).
        try "#EXTM3U\na.ogg\nb.ogg\n".write(toFile: server.directory + "/listen", atomically: true, encoding: .utf8)
        let dir = try Paths.temporaryDirectory("motet-mpris-list")
        try Fixtures.oggVorbis(dir + "/local.ogg", seconds: 30, tags: .init(title: "Listed Locally"))
        try "#EXTM3U\nlocal.ogg\n".write(toFile: dir + "/list.m3u", atomically: true, encoding: .utf8)

        // By its name, served as text/plain (as many servers send .pls files).
        let byName = try client.call(Self.player, "OpenUri", ["s", server.url("list.pls?type=text/plain")])
        #expect(byName.status == 0, "busctl OpenUri: \(byName.stderr)")
        #expect(motet.waitForState(timeout: 20) { $0["title"] as? String == "Listed A" && $0["url"] as? String == server.url("a.ogg") },
                "\(motet.state() ?? [:])\n\(motet.stderr)")
        // Its second entry follows.
        #expect(motet.waitForState(timeout: 20) { $0["title"] as? String == "Listed B" && $0["url"] as? String == server.url("b.ogg") },
                "\(motet.state() ?? [:])\n\(motet.stderr)")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["metadata", "xesam:url"]) == server.url("b.ogg") })

        // By its content type, under a name that says nothing.
        let byType = try client.call(Self.player, "OpenUri", ["s", server.url("listen?type=audio/x-mpegurl")])
        #expect(byType.status == 0, "busctl OpenUri: \(byType.stderr)")
        #expect(motet.waitForState(timeout: 20) { $0["title"] as? String == "Listed A" }, "\(motet.state() ?? [:])\n\(motet.stderr)")
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["metadata", "xesam:url"]) == server.url("a.ogg") })

        // A local playlist, as a file:// URI.
        let local = try client.call(Self.player, "OpenUri", ["s", "file://" + dir + "/list.m3u"])
        #expect(local.status == 0, "busctl OpenUri: \(local.stderr)")
        #expect(motet.waitForState(timeout: 20) { $0["title"] as? String == "Listed Locally" }, "\(motet.state() ?? [:])\n\(motet.stderr)")
        #expect(!motet.stderr.contains("playlist") && !motet.stderr.contains("web page") && !motet.stderr.contains("Ogg"), "\(motet.stderr)")
    }

    @Test func theCredentialsOfAURLFetchItAndAreShownNowhere() throws {
        // The server answers 401 to any request without them: the song plays only if they are used.
        let server = try Self.served(basicAuth: "listener:s3cret-pw")
        func withCredentials(_ path: String) -> String {
            server.url(path).replacingOccurrences(of: "http://", with: "http://listener:s3cret-pw@")
        }
        let bus = try DBusRig()
        defer { bus.stop() }
        let probes = try Paths.temporaryDirectory("motet-probe")
        let probe = try ProbePlugin.build(in: probes)
        let oldProbe = try ProbePlugin.build(in: probes, fileName: "old.so", abi1_0: true)
        let out = probes + "/probe.out", oldOut = probes + "/old.out"
        let motet = try MotetOnBus(
            bus: bus, files: [withCredentials("status/404"), withCredentials("b.ogg")],
            arguments: ["--plugin", "\(probe):out=\(out)", "--plugin", "\(oldProbe):out=\(oldOut)"])
        defer { motet.stop() }
        #expect(bus.waitForName("org.mpris.MediaPlayer2.motet", timeout: 15), "\(motet.stderr)")
        #expect(motet.waitForState(timeout: 20) { $0["title"] as? String == "Listed B" }, "\(motet.state() ?? [:])\n\(motet.stderr)")
        let client = BusClient(bus: bus)
        #expect(try Shell.waitUntil(timeout: 5) { client.playerctlValue(["metadata", "xesam:url"]) == server.url("b.ogg") },
                "\(client.playerctlValue(["metadata", "xesam:url"]))")
        #expect(motet.state()?["url"] as? String == server.url("b.ogg"), "\(motet.state() ?? [:])")
        // The ABI 1.1 track and now-playing `url`, and both ABIs' decode error `file_path`.
        #expect(try ProbePlugin.waitForLine(out) { $0.hasPrefix("np-stream url=\(server.url("b.ogg")) ") }, "\(ProbePlugin.lines(out))")
        #expect(ProbePlugin.lines(out).contains { $0.contains(" url=\(server.url("b.ogg")) ") }, "\(ProbePlugin.lines(out))")
        for file in [out, oldOut] {
            #expect(ProbePlugin.lines(file).contains { $0.hasPrefix("decode-error ") && $0.contains("file=\(server.url("status/404")) ") },
                    "\(ProbePlugin.lines(file))")
        }
        let surfaces = [
            ("the state file", (try? String(contentsOfFile: motet.stateFile, encoding: .utf8)) ?? ""),
            ("the 1.1 delegate", ProbePlugin.lines(out).joined(separator: "\n")),
            ("the 1.0 delegate", ProbePlugin.lines(oldOut).joined(separator: "\n")),
            ("MPRIS", client.playerctlValue(["metadata"])), ("stdout", motet.stdout), ("stderr", motet.stderr),
        ]
        for (name, text) in surfaces {
            #expect(!text.isEmpty && !text.contains("s3cret"), "\(name) shows the password: \(text)")
        }
    }
}
