import Foundation
import MotetTestSupport
import Testing

extension WebDelegateTests {
    /// A client of the event stream that never reads is dropped; the other clients get every track
    /// and the music is not disturbed: the WAV output is the same, byte for byte, as without the
    /// web delegate.
    @Suite struct WebSlowClientTests {
        @Test func aClientThatNeverReadsIsDroppedWhileTheOthersAndTheMusicGoOn() throws {
            let box = try PlayerSandbox()
            // Long tags (eight artists of 1000 bytes: motet keeps 1024 of each) make each state about
            // 18 KB, so a client that does not read falls 64 KiB behind within a few tracks.
            let long = String(repeating: "x", count: 1000)
            var tracks: [String] = []
            for i in 0..<12 {
                let file = box.path("long-\(i).ogg")
                try Fixtures.oggVorbis(
                    file, seconds: i == 0 ? 2 : 0.5, synth: ["sine", "\(300 + 40 * i)"],
                    tags: .init(title: "Song \(i) \(long)", artists: (1...8).map { "Band \($0) \(long)" }, album: "Record \(long)"),
                    serial: i + 1)
                tracks.append(file)
            }
            let heard = box.path("heard.wav")
            let rig = try WebRig(box, ["--output", "wav:\(heard)"] + tracks)
            defer { rig.stop() }
            let seen = try WebClients.run("stalled", [String(rig.port)])
            #expect(rig.process.wait(timeout: 30), "motet finished the queue")
            #expect(rig.process.exitCode == 0, "\(rig.stderr)")

            #expect(rig.stderr.contains("web: dropped a client of /api/events that did not read"), "\(rig.stderr.split(separator: "\n").filter { !$0.contains("shortened") })")
            let expected = (0..<12).map { "Song \($0)" }
            for titles in seen["titles"] as? [[String]] ?? [[], []] {
                let words = titles.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                #expect(words == expected, "a reading client saw \(words)")
            }

            let reference = box.path("reference.wav")
            let plain = try box.run(["--output", "wav:\(reference)", "--untimed", "--status", "quiet"] + tracks)
            #expect(plain.status == 0, "\(plain.stderr)")
            let a = try #require(FileManager.default.contents(atPath: heard))
            let b = try #require(FileManager.default.contents(atPath: reference))
            #expect(a.count > 44 && a == b, "the WAV output with the web delegate and a stalled client differs: \(a.count) vs \(b.count) bytes")
        }
    }
}
