import Foundation
import MotetTestSupport
import Testing

/// Plugins that send commands faster than any player can act on them: memory stays flat, the
/// flood is answered (refused), and another plugin's quit still ends the player at once.
@Suite struct CommandFloodTests {
    /// Peak resident memory of a running process (VmHWM), in KiB.
    static func peakKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    }

    @Test func aFourThreadFloodKeepsMemoryFlatAndAQuitFromAnotherPluginEndsThePlayerWithinASecond() throws {
        let run = try MotetRun("motet-flood")
        let song = run.path("song.ogg")
        try Fixtures.oggVorbis(song, seconds: 30, tags: .init(title: "Song", artists: ["Band"], album: "Record"), serial: 1)
        let flood = try ProbePlugin.build(in: run.home, fileName: "flood.so")
        let quitter = try ProbePlugin.build(in: run.home, fileName: "quitter.so")
        let floodLog = run.path("flood.txt"), quitLog = run.path("quit.txt")
        let stderr = run.path("stderr.txt")
        let motet = try SpawnedProcess(
            [Paths.motet, "--output", "null", "--no-config", "--status", "quiet",
             // LIKE (7) from four threads in a loop, as fast as send_command returns.
             "--plugin", "\(flood):senders=4,sends=-1,send_code=7,out=\(floodLog)",
             "--plugin", "\(quitter):quit_after_ms=2500,out=\(quitLog)", song],
            environment: run.environment, stderr: stderr)
        defer { motet.stop() }
        var peak = 0
        let quitSent = try Shell.waitUntil(timeout: 20) {
            if let kib = Self.peakKiB(motet.pid) { peak = max(peak, kib) }
            return ProbePlugin.lines(quitLog).contains("quit sent")
        }
        #expect(quitSent, "the quitting plugin never sent quit")
        let sentAt = ProbePlugin.entries(quitLog).first { $0.text == "quit sent" }?.micros ?? 0
        let exited = try Shell.waitUntil(timeout: 10) {
            if let kib = Self.peakKiB(motet.pid) { peak = max(peak, kib) }
            return !motet.isRunning
        }
        let exitedAt = ProcessInfo.processInfo.systemUptime
        #expect(exited, "motet still ran 10 s after the quit")
        let waited = Double(Int64(exitedAt * 1_000_000) - sentAt) / 1_000_000
        // Within a second; under a sanitizer (everything several times slower) within three.
        let sanitized = ProcessInfo.processInfo.environment["MOTET_SANITIZER"] != nil
        #expect(waited < (sanitized ? 3.0 : 1.0), "the player ended \(waited) s after the quit was sent")
        #expect(motet.exitCode == 0, "exit status \(motet.exitCode ?? -1): \((try? String(contentsOfFile: stderr, encoding: .utf8)) ?? "")")
        let bound = sanitized ? 512 * 1024 : 64 * 1024
        #expect(peak > 0 && peak < bound, "peak RSS \(peak) KiB during the flood")
        // The flood was answered: most of it refused, since a like of a liked track changes nothing.
        let answers = ProbePlugin.lines(floodLog).first { $0.hasPrefix("answers ") } ?? ""
        #expect(answers.contains("refused="), "the flood's answers: \(answers)")
        print("flood: peak RSS \(peak) KiB, quit honoured after \(waited) s; \(answers)")
    }
}
