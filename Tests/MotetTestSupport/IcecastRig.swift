import Foundation

/// A real Internet radio station on 127.0.0.1: Debian's `icecast2` with a generated config on a
/// free port, fed by `ices2` (Debian's Ogg Vorbis source client) from a playlist of fixture
/// tracks, each with its own TITLE and ARTIST. Every song reaches a listener as a new chained
/// Ogg link, in real time, with the station's `icy-name`, `icy-description`, `icy-genre` and
/// `icy-url` headers (see RECIPES.md).
///
/// `stopServer()` kills icecast (listeners lose the stream, and ices2 gives up);
/// `startServer()` brings it back on the same port, with a new ices2. `stop()` ends both (also on deinit).
public final class IcecastRig: @unchecked Sendable {
    /// What the fixture songs are: title, artist and length in seconds (played in this order,
    /// looping), and what sox synthesises (nil: a sine of its own pitch per song, which Vorbis
    /// squeezes into a few KiB a second; noise comes out at a real station's bit rate).
    public struct Song: Sendable {
        public var title: String
        public var artist: String
        public var seconds: Double
        public var synth: [String]?
        public init(title: String, artist: String, seconds: Double, synth: [String]? = nil) {
            self.title = title
            self.artist = artist
            self.seconds = seconds
            self.synth = synth
        }
    }

    public static let stationName = "Motet Test Radio"
    public static let stationDescription = "Songs with distinct tags"
    public static let stationGenre = "Test Tones"
    public static let stationHomepage = "http://station.invalid/"

    public let directory: String
    public let port: Int
    public let songs: [Song]
    /// The fixture files, in playlist order.
    public let files: [String]
    private var icecast: SpawnedProcess?
    private var ices: SpawnedProcess?
    private let lock = NSLock()

    /// The mount's URL.
    public var url: String { "http://127.0.0.1:\(port)/radio.ogg" }

    /// What icecast sends a new listener at once from before it connected (bytes): with the
    /// default, a listener starts that much behind the station's live edge.
    public let burstSize: Int

    /// An Ogg Opus station (ices2 sends only Vorbis): each song encoded by ffmpeg's libopus
    /// encoder with its tags (`files`), chained, the chain repeated for `opusSeconds` of sound,
    /// and sent to icecast2 as a source (an HTTP PUT) by curl, paced a little faster than real
    /// time. So every song reaches a listener as a new chained link, through icecast2's own Ogg
    /// handling, as from ices2.
    public let opus: Bool
    public static let opusSeconds = 150.0

    /// Makes the fixture songs and starts the station; returns once the mount is on air.
    public init(songs: [Song], quality: Int = 3, burstSize: Int = 65535, opus: Bool = false) throws {
        self.burstSize = burstSize
        self.opus = opus
        directory = try Paths.temporaryDirectory("motet-icecast")
        self.songs = songs
        var made: [String] = []
        for (i, song) in songs.enumerated() {
            let synth = song.synth ?? ["sine", "\(330 + 110 * i)"]
            if opus {
                let wav = directory + "/song\(i + 1).wav", path = directory + "/song\(i + 1).opus"
                try Fixtures.wav(wav, seconds: song.seconds, rate: 48000, synth: synth)
                try Fixtures.opus(
                    path, from: wav, bitrate: 64, encoder: .ffmpeg,
                    tags: Fixtures.Tags(title: song.title, artists: [song.artist], album: "Radio Fixtures"))
                made.append(path)
                continue
            }
            let path = directory + "/song\(i + 1).ogg"
            try Fixtures.oggVorbis(
                path, seconds: song.seconds, synth: synth,
                tags: Fixtures.Tags(title: song.title, artists: [song.artist], album: "Radio Fixtures"), quality: quality)
            made.append(path)
        }
        files = made
        port = try Self.freePort()
        try writeConfigs()
        if opus { opusRate = try Self.chain(made, seconds: songs.map(\.seconds).reduce(0, +), into: directory + "/station.opus") }
        do {
            try startServer()
            guard try Shell.waitUntil(timeout: 20, { self.isOnAir }) else {
                throw TestError.failed("the ices2 source never reached icecast2: \(log("ices.log"))")
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// True while the mount sends Ogg pages (a source is connected and has sent its headers).
    public var isOnAir: Bool {
        let sample = directory + "/on-air.sample"
        // The mount streams forever: curl ends at -m (status 28) with what it got by then.
        let r = try? Shell.run(["curl", "-s", "-o", sample, "-m", "1.5", "-w", "%{http_code}", url], timeout: 10)
        let head = FileManager.default.contents(atPath: sample).map { [UInt8]($0.prefix(4)) } ?? []
        return r?.stdout.hasPrefix("200") == true && head == Array("OggS".utf8)
    }

    /// Starts icecast2 (again) on the same port; returns once it accepts connections.
    public func startServer() throws {
        let startsBefore = serverStarts
        let process = try SpawnedProcess(
            ["icecast2", "-c", directory + "/icecast.xml"], stdout: directory + "/icecast.stdout",
            appendOutput: true, stderr: directory + "/icecast.stderr")
        lock.withLock { icecast = process }
        // An HTTP request that icecast2 answers (its status page), not only a connection: after a
        // restart on the same port, only the new server can answer. And no connection at all
        // until it has been up a moment: icecast2 2.4.4 accepts connections as soon as it has
        // started its threads, and its stats thread sets the counters that every connection
        // counts on only once it runs; a connection accepted before then counts on a counter that
        // is not there (strdup(NULL) in stats.c's process_global_event: SIGSEGV, in about 1 of
        // 100 starts polled at once; it ended CI's run of 2026-12-05). Its log's "server started"
        // comes after that thread is created and before the first accept; half a second after
        // it, a thread that was made runnable has run, however loaded the machine.
        let status = "http://127.0.0.1:\(port)/status-json.xsl"
        var started: Stopwatch?
        try Readiness.wait(
            for: "icecast2", answering: "GET \(status)", timeout: 20, process: process,
            detail: { "\(self.log("error.log")) \(self.log("../icecast.stderr"))" }
        ) {
            if started == nil && self.serverStarts > startsBefore { started = Stopwatch() }
            guard let started, started.seconds >= 0.5 else { return false }
            let r = try? Shell.run(["curl", "-s", "-o", "/dev/null", "-m", "5", "-w", "%{http_code}", status], timeout: 10)
            return r?.stdout == "200"
        }
        // ices2 (and curl) give up when their server goes away: the source starts again with it.
        try lock.withLock {
            // The Opus source may not notice for a long while that its server died: a new one goes with the new server.
            if opus, let source = ices, source.isRunning, startsBefore > 0 { source.stop() }
            if ices?.isRunning != true {
                ices = try SpawnedProcess(sourceCommand, stderr: directory + (opus ? "/source.stderr" : "/ices2.stderr"))
            }
        }
    }

    /// The station's source client: ices2, or curl sending the chained Opus songs.
    private var sourceCommand: [String] {
        guard opus else { return ["ices2", directory + "/ices.xml"] }
        return [
            "curl", "-sS", "-T", directory + "/station.opus", "--limit-rate", "\(opusRate)", "-u", "source:motet-source",
            "-H", "Content-Type: audio/ogg", "-H", "Expect:", "-H", "Ice-Name: \(Self.stationName)",
            "-H", "Ice-Genre: \(Self.stationGenre)", "-H", "Ice-Description: \(Self.stationDescription)",
            "-H", "Ice-URL: \(Self.stationHomepage)", url,
        ]
    }

    /// The Opus source's pace (bytes a second): 10 % over the songs' own, so the station never
    /// starves its listeners.
    private var opusRate = 0

    /// Chains `files` (Ogg streams, `seconds` long together) as often as `opusSeconds` takes into
    /// `path`; returns the pace to send it at.
    private static func chain(_ files: [String], seconds: Double, into path: String) throws -> Int {
        let repeats = max(1, Int((opusSeconds / max(seconds, 0.1)).rounded(.up)))
        try Fixtures.chain(Array(Array(repeating: files, count: repeats).joined()), into: path)
        let bytes = try files.reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int ?? 0) }
        return Int(Double(bytes) / max(seconds, 0.1) * 1.1)
    }

    /// Kills icecast2 (SIGKILL: the listeners' connections drop at once, as when a server dies).
    public func stopServer() {
        let process = lock.withLock { () -> SpawnedProcess? in
            defer { icecast = nil }
            return icecast
        }
        guard let process else { return }
        process.signal(SIGKILL)
        _ = process.wait(timeout: 10)
    }

    /// Stops the source and the server. Safe to call twice.
    public func stop() {
        let source = lock.withLock { () -> SpawnedProcess? in
            defer { ices = nil }
            return ices
        }
        source?.stop()
        stopServer()
    }

    /// How many times an icecast2 of this station has said it started (its error.log is appended
    /// to across restarts).
    private var serverStarts: Int {
        log("error.log").components(separatedBy: " server started\n").count - 1
    }

    /// A log of the station (icecast's `error.log`, `access.log`, ices2's `ices.log`).
    public func log(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/logs/" + name, encoding: .utf8)) ?? ""
    }

    private func writeConfigs() throws {
        let logs = directory + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        // As root, icecast2 insists on changing to an unprivileged user, who must write the logs.
        let asRoot = getuid() == 0
        if asRoot {
            try Shell.check(["chown", "nobody:nogroup", logs])
            try Shell.check(["chmod", "755", directory])
        }
        let changeOwner = asRoot ? "<changeowner><user>nobody</user><group>nogroup</group></changeowner>" : ""
        let icecast = """
            <icecast>
              <limits><clients>20</clients><sources>2</sources><queue-size>524288</queue-size>
                <client-timeout>30</client-timeout><header-timeout>15</header-timeout>
                <source-timeout>10</source-timeout><burst-size>\(burstSize)</burst-size></limits>
              <authentication><source-password>motet-source</source-password>
                <admin-user>admin</admin-user><admin-password>motet-admin</admin-password></authentication>
              <hostname>127.0.0.1</hostname>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
              <paths><basedir>/usr/share/icecast2</basedir><webroot>/usr/share/icecast2/web</webroot>
                <adminroot>/usr/share/icecast2/admin</adminroot><logdir>\(logs)</logdir></paths>
              <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
              <security><chroot>0</chroot>\(changeOwner)</security>
            </icecast>

            """
        try icecast.write(toFile: directory + "/icecast.xml", atomically: true, encoding: .utf8)
        try (files.joined(separator: "\n") + "\n").write(toFile: directory + "/playlist.txt", atomically: true, encoding: .utf8)
        let ices = """
            <ices>
              <background>0</background>
              <logpath>\(logs)</logpath><logfile>ices.log</logfile><loglevel>4</loglevel><consolelog>0</consolelog>
              <stream>
                <metadata><name>\(Self.stationName)</name><genre>\(Self.stationGenre)</genre>
                  <description>\(Self.stationDescription)</description><url>\(Self.stationHomepage)</url></metadata>
                <input><module>playlist</module><param name="type">basic</param>
                  <param name="file">\(directory)/playlist.txt</param><param name="random">0</param>
                  <param name="once">0</param></input>
                <instance><hostname>127.0.0.1</hostname><port>\(port)</port><password>motet-source</password>
                  <mount>/radio.ogg</mount><reconnectdelay>1</reconnectdelay><reconnectattempts>-1</reconnectattempts></instance>
              </stream>
            </ices>

            """
        try ices.write(toFile: directory + "/ices.xml", atomically: true, encoding: .utf8)
    }

    /// A port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError.failed("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = Readiness.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestError.failed("bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
