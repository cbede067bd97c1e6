import Foundation
import MotetTestSupport
import Testing

/// Fades out of what is read over the network (README, "Crossfade and fades"): a stream cannot be
/// read again from a cut, so its fade out is what the output kept of it past the cut
/// (`WrittenHistory`). A file over HTTP is seeked, paused, resumed and skipped with no step
/// larger than its own (WAV output, in real time: what was decoded and not yet written is the
/// tail); a resume after such a pause fetches the file again from where it paused.
@Suite struct StreamFadeTests {
    /// `FadeTests`' two tones, the first also served over HTTP (its URL, with `query`); stop the
    /// server when done.
    static func servedTones(_ run: MotetRun, query: String = "") throws -> (files: [String], remote: String, server: FaultyHTTPServer) {
        let files = try FadeTests().tones(run)
        let server = try FaultyHTTPServer(directory: run.home)
        return (files, server.url((files[0] as NSString).lastPathComponent + query), server)
    }

    @Test func seekPauseResumeAndSkipInAFileOverHTTPLeaveNoStepLargerThanTheMusicsOwn() throws {
        let run = try MotetRun()
        let fade = FadeTests()
        let (files, remote, server) = try Self.servedTones(run)
        defer { server.stop() }
        // Seek +2 s, pause, play, next (to the local file), quit.
        let (r, out) = try fade.play(run, [remote, files[1]], script: "1500/10/2000000;3000/2/0;3500/1/0;5000/4/0;6500/13/0")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Low (ok, skipped)") && r.stdout.contains("Playing: High"), "\(r.stdout)")
        let own = try files.map { FadeTests.largestStep(FadeTests.leftChannel(try Fixtures.referenceDecode($0))) }.max() ?? 0
        let largest = FadeTests.largestStep(out)
        #expect(largest <= own + own / 10, "largest step \(largest), the tones' own \(own)")
        // 1.5 s, then 1.5 s from 3.5 s on (the seek), the pause's fade, then 1.5 s more from
        // where it paused (not from where the decoder had got to), then High: the resume lost
        // nothing and repeated nothing but fades.
        let low = FadeTests.tenthsOfLow(out)
        #expect((42...52).contains(low), "\(low) tenths of Low")
    }

    /// A skip out of a file over HTTP crossfades on PulseAudio too, where what plays at the cut
    /// was written seconds before and comes from the sink's history. No step is measured (that
    /// needs the cut's 40 ms: StationFadeTests), so the sanitizer passes run it: the history is
    /// written by the sink thread and read by the control thread while the sink is parked.
    @Test func aSkipOutOfAFileOverHTTPOnPulseAudioCrossfades() throws {
        let run = try MotetRun()
        let (files, remote, server) = try Self.servedTones(run)
        defer { server.stop() }
        let (r, out) = try StationFadeTests.play(run, [remote, files[1]], script: "3000/4/0;5500/6/0;6000/13/0", options: ["--crossfade", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        FadeTests.expectCrossfadedSkip(r, from: "Low", into: "High", heard: out)
    }

    /// A file over HTTP that cannot be fetched again from the middle (the server offers no
    /// ranges) is paused as before: corked, its buffers kept, and play goes on from them.
    @Test func aFileOverHTTPWithoutRangesPausesAndPlaysOnFromWhereItWas() throws {
        let run = try MotetRun()
        let fade = FadeTests()
        let (_, remote, server) = try Self.servedTones(run, query: "?noranges=1")
        defer { server.stop() }
        // Pause, play, quit.
        let (r, out) = try fade.play(run, [remote], script: "1500/2/0;2500/1/0;4500/13/0")
        #expect(r.status == 0 && !r.stderr.contains("cannot seek"), "\(r.stderr)")
        let low = FadeTests.tenthsOfLow(out)
        // 1.5 s, then 2 s more after the pause.
        #expect((30...40).contains(low), "\(low) tenths of Low")
    }
}

/// A skip out of a live station crossfades into the next entry, and a pause fades out of it, as
/// heard through PulseAudio's pipe sink in real time: the station (icecast2 fed by ices2) plays a
/// tone, the next entry another. A device holds seconds of the station when the skip comes; the
/// fade out is those seconds, rewritten in the server's queue from the cut on
/// (`PulseOutput.cut`): a measurement of time, run alone (`measuresTime`, as `DeviceFadeTests`).
@Suite(.measuresTime) struct StationFadeTests {
    /// A station of one long tone. A listener of a station that just went on air hears it about
    /// 7 s after starting (the burst holds what little the source sent; then the pre-buffers
    /// fill in real time): the scripts act from 11 s on.
    static func station() throws -> IcecastRig {
        try IcecastRig(songs: [IcecastRig.Song(title: "On Air", artist: "Station", seconds: 60, synth: ["sine", "440"])])
    }

    /// Plays `entries` into a PulseAudio pipe sink with the probe's `script`; the left channel
    /// heard, and what motet printed.
    static func play(_ run: MotetRun, _ entries: [String], script: String, options: [String] = []) throws -> (ProcessResult, [Int16]) {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        let probe = try ProbePlugin.build(in: run.home)
        let r = try run.run(
            ["--output", "pulse", "--no-config", "--status", "events", "--plugin", "\(probe):out=\(run.path("probe.txt")),script=\(script)"]
                + options + entries,
            extraEnvironment: pulse.environment, timeout: 60)
        Thread.sleep(forTimeInterval: 1)
        return (r, FadeTests.leftChannel(pulse.capturedBytes()))
    }

    @Test func aSkipOutOfAStationCrossfadesIntoTheNextEntry() throws {
        let station = try Self.station()
        defer { station.stop() }
        let run = try MotetRun()
        let next = try FadeTests().tones(run)[1]
        // Next, then stop before quitting: a quit while playing is no cut (DeviceFadeTests).
        let (r, out) = try Self.play(run, [station.url, next], script: "11000/4/0;13500/6/0;14000/13/0", options: ["--crossfade", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        FadeTests.expectCrossfadedSkip(r, from: "On Air", into: "High", heard: out)
        let own = try ([station.files[0], next]).map { FadeTests.largestStep(FadeTests.leftChannel(try Fixtures.referenceDecode($0))) }
        #expect(FadeTests.largestStep(out) <= own.reduce(0, +), "largest step \(FadeTests.largestStep(out)), the tones' own \(own)")
    }

    @Test func pausingAndResumingAStationLeavesNoStepLargerThanTheMusicsOwn() throws {
        let station = try Self.station()
        defer { station.stop() }
        let run = try MotetRun()
        // Pause, play (the station is rejoined live, fading in), stop, play, stop, quit.
        let (r, out) = try Self.play(run, [station.url], script: "11000/2/0;12000/1/0;14500/6/0;15000/1/0;17000/6/0;17500/13/0")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("State: paused") && r.stdout.contains("State: stopped"), "\(r.stdout)")
        let own = FadeTests.largestStep(FadeTests.leftChannel(try Fixtures.referenceDecode(station.files[0])))
        let steps = zip(out, out.dropFirst()).enumerated().map { ($0.offset, abs(Int($0.element.1) - Int($0.element.0))) }
        let over = steps.filter { $0.1 > own + own / 10 }.prefix(20).map { "\($0.1)@\($0.0)" }
        #expect(over.isEmpty, "the tone's own largest step \(own); above it: \(over)")
        #expect(out.filter { $0 != 0 }.count > 44100 * 5, "\(out.count) frames")
    }
}
