import Foundation
import MotetEvents
import MotetPluginHost
import MotetTestSupport

/// A `PluginHost` wired to recorders instead of a player: the log lines and the commands it
/// received, in arrival order.
final class HostHarness: @unchecked Sendable {
    private let lock = NSLock()
    private var logLines: [String] = []
    private var receivedCommands: [(PlayerCommand, String)] = []
    private var receivedTracks: [UInt64] = []
    let host: PluginHost
    let directory: String

    /// `answer`: what the stand-in player answers every command.
    init(remoteCommands: Bool = true, answer: CommandAnswer = .accepted, label: String = "plugin-host") throws {
        directory = try Paths.temporaryDirectory(label)
        let box = Recorder()
        host = PluginHost(
            PluginHost.Configuration(
                hostVersion: "0.0.0-test", artworkCacheDirectory: "/tmp/motet-test-artwork",
                remoteCommands: remoteCommands,
                log: { box.harness?.record(log: $0) },
                commands: { command, track, instance in
                    box.harness?.record(command: command, track: track, instance: instance)
                    return answer
                }))
        box.harness = self
    }

    /// The search path of a test: only the harness directory (and the runner's own dirs, empty).
    var searchPath: PluginSearchPath {
        PluginSearchPath(pluginDirectories: [directory], environment: [:], executablePath: "/nonexistent/bin/motet")
    }

    /// Loads `requests` with the harness directory as the search path, waits for their creates,
    /// and returns how many instances are running.
    @discardableResult
    func load(_ requests: [PluginRequest], allowUnsafePermissions: Bool = false) -> Int {
        host.load(requests, searchPath: searchPath, allowUnsafePermissions: allowUnsafePermissions)
        return host.waitForCreates(timeout: .seconds(20))
    }

    /// A request for a probe writing to `directory/<instance>.out`.
    func probeRequest(_ nameOrPath: String, instance: String? = nil, options: [(String, String)] = []) -> PluginRequest {
        let name = instance ?? nameOrPath
        let pairs = [PluginOption(key: "out", value: output(name))]
            + options.map { PluginOption(key: $0.0, value: $0.1) }
        return PluginRequest(name: nameOrPath, options: pairs, instanceName: name, origin: "test.conf:7")
    }

    /// Where the probe instance `name` writes.
    func output(_ name: String) -> String { directory + "/" + name.replacingOccurrences(of: "/", with: "_") + ".out" }

    var log: [String] { lock.withLock { logLines } }
    var commands: [(PlayerCommand, String)] { lock.withLock { receivedCommands } }

    func record(log line: String) { lock.withLock { logLines.append(line) } }
    /// The track each received command named (0: the current one), in the order of `commands`.
    var commandTracks: [UInt64] { lock.withLock { receivedTracks } }

    func record(command: PlayerCommand, track: UInt64, instance: String) {
        lock.withLock {
            receivedCommands.append((command, instance))
            receivedTracks.append(track)
        }
    }

    /// Removes the test directory (after shutdown).
    func cleanUp() {
        _ = host.shutdown(timeout: .seconds(5))
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Lets the configuration's closures reach the harness created after them.
private final class Recorder: @unchecked Sendable {
    weak var harness: HostHarness?
}

/// Events with plausible content.
enum SampleEvents {
    static func track(_ title: String, trackID: UInt64 = 1, artwork: Artwork? = nil) -> PlayerEvent {
        .nowPlaying(
            NowPlaying(
                track: TrackInfo(
                    title: title, artists: ["Ada", "Bo"], album: "The Album", durationMicros: 180_000_000,
                    artwork: artwork, filePath: "/music/\(title).ogg"),
                trackID: trackID, elapsedMicros: 1_500_000, elapsedAtMicros: 42, rate: 1.0,
                liked: true, disliked: false, nextEnabled: true, previousEnabled: false))
    }

    static func state(volume: Int, status: PlaybackStatus = .playing) -> PlayerEvent {
        .playbackState(
            PlaybackState(
                status: status, volumePercent: volume, shuffle: false, loop: true, canSeek: true,
                remoteCommands: true))
    }
}
