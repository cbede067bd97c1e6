import Foundation
import MotetTestSupport
import Testing

/// C plugins in the real player: a plugin that blocks in every call changes nothing in the audio
/// and delays no other plugin, and every plugin sees "nothing playing" at the end.
@Suite struct PluginPlaybackTests {
    /// The probe's lines: (CLOCK_MONOTONIC microseconds, what).
    private func lines(_ path: String) -> [(micros: Int64, text: String)] {
        ProbePlugin.entries(path).map { ($0.micros, $0.text) }
    }

    @Test func aPluginBlockingInEveryCallLeavesTheAudioExactAndTheOtherPluginOnTime() throws {
        let run = try MotetRun("motet-plugins")
        defer { try? FileManager.default.removeItem(atPath: run.home) }
        let probe = try ProbePlugin.build(in: run.home)
        let a = run.path("a.ogg"), b = run.path("b.ogg")
        try Fixtures.oggVorbis(a, seconds: 1.3, synth: ["sine", "200-2000"], tags: .init(title: "First"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 0.7, synth: ["sine", "500"], tags: .init(title: "Second"), serial: 2)
        let slow = run.path("slow.out"), fast = run.path("fast.out"), wav = run.path("out.wav")
        let started = Stopwatch()
        let result = try run.run([
            // Real time: untimed, the two tracks pass in milliseconds and a plugin's queued
            // now-playing events coalesce (latest wins, by design), so "Second" may be skipped.
            "--no-config", "--output", "wav:\(wav)", "--status", "events",
            "--plugin", "\(probe):sleep_ms=400,out=\(slow)", "--plugin", "\(probe):out=\(fast)", a, b,
        ], timeout: 60)
        let seconds = started.seconds
        #expect(result.status == 0, "\(result.stderr)")

        // The audio: every frame of both files, exactly (the sink never waits for a plugin).
        let written = try wavData(wav)
        let reference = try Fixtures.referenceDecode(a) + Fixtures.referenceDecode(b)
        #expect(written.data.count == reference.count, "frames: \(written.data.count / 4) vs \(reference.count / 4)")
        #expect(written.data == reference)

        // The fast plugin saw both tracks, then "nothing playing", then shutdown and destroy.
        let fastLines = lines(fast)
        let nowPlaying = fastLines.filter { $0.text.hasPrefix("np ") }.map(\.text)
        #expect(nowPlaying.contains { $0.contains("present=0x7") && $0.contains("title=First") })
        #expect(nowPlaying.contains { $0.contains("title=Second") })
        #expect(nowPlaying.last?.hasPrefix("np size=192 present=0x0 flags=0x0 title=(null)") == true)
        #expect(Array(fastLines.suffix(2).map(\.text)) == ["shutdown", "destroy"])

        // ...on time: it learns of "Second" when it is heard, 1.3 s after "First" (the slow plugin
        // delays only itself), and before the slow one does, if the slow one sees it at all.
        let slowLines = lines(slow).filter { !$0.text.hasPrefix("create") && !$0.text.hasPrefix("option") }
        #expect(slowLines.count >= 3)
        let fastFirst = fastLines.first { $0.text.hasPrefix("np ") && $0.text.contains("title=First") }
        let fastSecond = fastLines.first { $0.text.hasPrefix("np ") && $0.text.contains("title=Second") }
        if let fastFirst, let fastSecond {
            let gap = Double(fastSecond.micros - fastFirst.micros) / 1e6
            #expect(abs(gap - 1.3) < 0.35, "the fast plugin saw Second \(gap) s after First")
            if let slowSecond = slowLines.first(where: { $0.text.hasPrefix("np ") && $0.text.contains("title=Second") }) {
                #expect(fastSecond.micros < slowSecond.micros)
            }
        }
        // The slow one also ends on "nothing playing" (its now-playing events coalesced), or the
        // player gave up on it within its shutdown bound and said so.
        let slowNowPlaying = slowLines.filter { $0.text.hasPrefix("np ") }
        #expect(slowNowPlaying.last?.text.contains("present=0x0") == true
            || result.stderr.contains("gave up waiting for plugin"))
        #expect(seconds < 15, "motet took \(seconds) s")
    }
}
