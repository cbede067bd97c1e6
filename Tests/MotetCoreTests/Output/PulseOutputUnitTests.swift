import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Synchronization
import Testing

/// PulseOutput against a real, private PulseAudio server (PulseRig) whose real-time pipe sink
/// captures what was played. The tests drive the device on one thread, as the sink worker does.
@Suite(.serialized) struct PulseOutputUnitTests {
    func makeDevice(_ rig: PulseRig, events: EventLog? = nil, pauseForCalls: Bool = true) throws -> PulseOutput {
        let device = try PulseOutput(
            clientName: "motet-test", server: rig.serverAddress, device: PulseRig.sinkName, pauseForCalls: pauseForCalls)
        device.onEvent = events?.handler
        return device
    }

    /// The captured frames from the first to the last non-silent one.
    func nonSilent(_ bytes: [UInt8], channels: Int = 2) -> [UInt8] {
        PulseRig.nonSilent(bytes, frameBytes: 2 * channels)
    }

    /// Frames of sound the capture holds so far: from its first non-silent frame to its end.
    func soundCaptured(_ rig: PulseRig) -> Int {
        let bytes = rig.capturedBytes()
        guard let r = PulseRig.nonSilentFrames(bytes, frameBytes: rig.frameBytes) else { return 0 }
        return bytes.count / rig.frameBytes - r.lowerBound
    }

    @Test func aSweepArrivesBitExactWithTheExactFrameCount() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let signal = try TestSignal(seconds: 2)
        let device = try makeDevice(rig)
        try device.open(signal.format)
        let driver = DeviceDriver(device, channels: 2)
        var accepted = 0
        let elapsed = try seconds {
            accepted = try driver.play(signal.floats)
            #expect(device.drain())
        }
        #expect(accepted == signal.frames)
        #expect(driver.heard == Int64(signal.frames))
        device.close()
        #expect(elapsed > 1.9 && elapsed < 3.0, "playing 2 s took \(elapsed) s")
        let expected = nonSilent(signal.bytes)
        let captured = nonSilent(rig.captureAfterSound() ?? [])
        #expect(captured.count == expected.count, "captured \(captured.count / 4) frames, expected \(expected.count / 4)")
        #expect(difference(captured, expected) == nil)
    }

    @Test(arguments: [1, 6, 8])
    func channelsArriveInTheirPlaces(channels: Int) throws {
        let rig = try PulseRig(channels: channels)
        defer { rig.stop() }
        // A different tone on every channel: a swapped pair would not compare equal.
        let tones = (0..<channels).flatMap { ["sine", "\(300 + 100 * $0)-\(900 + 150 * $0)"] }
        let signal = try TestSignal(seconds: 0.5, channels: channels, synth: tones)
        let device = try makeDevice(rig)
        #expect(try playAll(device, signal.floats, format: signal.format) == signal.frames)
        device.close()
        let captured = nonSilent(rig.captureAfterSound() ?? [], channels: channels)
        #expect(captured.count == nonSilent(signal.bytes, channels: channels).count)
        #expect(difference(captured, nonSilent(signal.bytes, channels: channels), frameBytes: 2 * channels) == nil)
    }

    /// With module-role-cork the server asks and the device sees the call too; without it, the
    /// device alone sees it. One cork and one uncork either way.
    @Test(arguments: [true, false])
    func aPhoneCallCorksAndUncorksTheMusic(roleCork: Bool) throws {
        let rig = try PulseRig(roleCork: roleCork)
        defer { rig.stop() }
        let events = EventLog()
        let device = try makeDevice(rig, events: events)
        let tone = try TestSignal(seconds: 1, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        try driver.play(tone.floats, loop: true, giveUp: 0.5)
        let phone = Thread { try? rig.playPhoneStream(seconds: 1) }
        phone.start()
        try driver.play(tone.floats, loop: true, giveUp: 5) { events.all.contains(.corkRequested) }
        #expect(events.all.contains(.corkRequested), "events: \(events.all)")
        // The player's answer to an interruption: pause (PulseAudio only uncorks a client that corked).
        device.setPaused(true)
        let heardAtCork = driver.heard
        driver.idle(0.3)
        #expect(abs(driver.heard - heardAtCork) < 441)
        #expect(events.wait(for: .uncorkRequested, timeout: 10), "events: \(events.all)")
        device.setPaused(false)
        let resumedAt = driver.heard
        try driver.play(tone.floats, loop: true, giveUp: 3) { driver.heard > resumedAt + 4410 }
        #expect(driver.heard > resumedAt + 4410)
        #expect(events.all == [.corkRequested, .uncorkRequested])
        device.close()
    }

    @Test func withPauseForCallsOffNoCallIsReportedNotEvenTheServersCork() throws {
        let rig = try PulseRig(roleCork: true)
        defer { rig.stop() }
        let events = EventLog()
        let device = try makeDevice(rig, events: events, pauseForCalls: false)
        let tone = try TestSignal(seconds: 1, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        try driver.play(tone.floats, loop: true, giveUp: 0.5)
        let phone = Thread { try? rig.playPhoneStream(seconds: 1) }
        phone.start()
        try driver.play(tone.floats, loop: true, giveUp: 2.5)
        #expect(events.all.isEmpty, "events: \(events.all)")
        device.close()
    }

    @Test func theStreamCarriesTheTitleAndArtistItIsToldAbout() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let device = try makeDevice(rig)
        device.describe(title: "Before", artist: "Early")  // no stream yet: it is made with them
        let tone = try TestSignal(seconds: 1, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        try driver.play(tone.floats, loop: true, giveUp: 0.3)
        var inputs = try rig.pactl(["list", "sink-inputs"]).stdout
        #expect(inputs.contains("media.title = \"Before\"") && inputs.contains("media.artist = \"Early\""), "\(inputs)")
        #expect(inputs.contains("application.icon_name = \"multimedia-player\""), "\(inputs)")
        device.describe(title: "After", artist: nil)
        let changed = try Shell.waitUntil(timeout: 3) {
            inputs = (try? rig.pactl(["list", "sink-inputs"]).stdout) ?? ""
            return inputs.contains("media.title = \"After\"")
        }
        #expect(changed, "\(inputs)")
        #expect(!inputs.contains("media.artist"), "an unknown artist is removed: \(inputs)")
        device.close()
    }

    @Test func losingTheServerIsReportedAndPlaybackResumesWhenItIsBack() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let events = EventLog()
        let device = try makeDevice(rig, events: events)
        let tone = try TestSignal(seconds: 0.5, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        try driver.play(tone.floats, loop: true, giveUp: 0.7)
        rig.kill()
        try driver.play(tone.floats, loop: true, giveUp: 3) { events.all.contains(.lost) }
        #expect(events.all.contains(.lost), "events: \(events.all)")
        #expect(device.state().lost && device.state().freeFrames == 0)
        #expect(try tone.floats.withUnsafeBufferPointer { try device.write($0) } == 0, "writes while lost take nothing")
        let heardAtLoss = driver.heard
        try rig.restart()
        try driver.play(tone.floats, loop: true, giveUp: 10) { events.all.contains(.restored) }
        #expect(events.all.contains(.restored), "events: \(events.all)")
        // What the dead stream held is never heard: the heard position carries on from the loss.
        #expect(driver.heard >= heardAtLoss && driver.heard < heardAtLoss + 4410)
        // Writing continues into the new server.
        let afterRestore = driver.heard
        try driver.play(tone.floats, loop: true, giveUp: 3) { driver.heard > afterRestore + 4410 }
        #expect(driver.heard > afterRestore + 4410)
        #expect(device.drain())
        #expect(events.all == [.lost, .restored])

        // And what is written now arrives bit-exact.
        usleep(300_000)  // the FIFO reader catches up with the drained tone
        let mark = rig.capturedByteCount
        let sweep = try TestSignal(seconds: 1)
        #expect(try driver.play(sweep.floats) == sweep.frames)
        device.drain()
        device.close()
        let captured = nonSilent(rig.captureAfterSound(from: mark) ?? [])
        #expect(difference(captured, nonSilent(sweep.bytes)) == nil)
    }

    @Test func heardFollowsRealTimeAndStandsStillWhenPaused() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let device = try makeDevice(rig)
        // Longer than what the device buffers (3 s in the server, 3 s staged), so that the
        // four samples below are taken while it plays.
        let tone = try TestSignal(seconds: 8, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        #expect(driver.heard == 0)
        let start = Stopwatch()
        var samples: [(elapsed: Double, heard: Double, captured: Double)] = []
        try driver.play(tone.floats, giveUp: 10) {
            let elapsed = start.seconds
            if elapsed >= 0.4 * Double(samples.count + 1) {
                samples.append((elapsed, Double(driver.heard) / 44100, Double(soundCaptured(rig)) / 44100))
            }
            return samples.count == 4
        }
        for s in samples {
            // Heard never leads real time.
            #expect(s.heard <= s.elapsed + 0.02, "heard \(s.heard) s after \(s.elapsed) s")
            // Nor does it lag what the sink played. Measured against the sink, not the stopwatch:
            // on a loaded machine (a hunt's run with a build beside, or six spinning processes)
            // the server starts 0.3 to 0.5 s after the first write, and heard follows the sink
            // within 20 ms. The FIFO's reader only ever lags, which makes `captured` smaller.
            #expect(s.heard >= s.captured - 0.15, "heard \(s.heard) s when \(s.captured) s had reached the sink")
        }
        let rates = zip(samples, samples.dropFirst()).map { ($1.heard - $0.heard) / ($1.elapsed - $0.elapsed) }
        for r in rates { #expect(r > 0.85 && r < 1.15, "heard clock ran at \(r)× real time") }
        device.setPaused(true)
        driver.idle(0.1)
        let paused = driver.heard
        #expect(!device.state().playing)
        driver.idle(0.4)
        #expect(abs(driver.heard - paused) < 441, "heard moved while paused")
        device.setPaused(false)
        driver.reset()
        #expect(driver.heard == 0)
        device.close()
    }

    @Test func aTrackShorterThanTheBufferIsPlayedOutByDrain() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let signal = try TestSignal(seconds: 0.1)
        let device = try makeDevice(rig)
        try device.open(signal.format)
        let driver = DeviceDriver(device, channels: 2)
        #expect(try driver.play(signal.floats) == signal.frames)
        var completed = false
        let elapsed = seconds { completed = device.drain() }
        #expect(completed && elapsed < 1.0, "drain took \(elapsed) s")
        #expect(driver.heard == Int64(signal.frames))
        device.close()
        #expect(difference(nonSilent(rig.captureAfterSound() ?? []), nonSilent(signal.bytes)) == nil)
    }

    @Test func wakeupEndsAWaitSoonAndAPausedDeviceTakesNothing() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let device = try makeDevice(rig)
        let tone = try TestSignal(seconds: 3, synth: ["sine", "440"])
        try device.open(tone.format)
        let driver = DeviceDriver(device, channels: 2)
        try driver.play(tone.floats, giveUp: 0.5)
        // Corked and full: no write request will come, only the wakeup ends the wait.
        device.setPaused(true)
        try driver.play(tone.floats, giveUp: 0.2)
        #expect(device.state().freeFrames == 0)
        Thread {
            usleep(400_000)
            device.wakeup()
        }.start()
        let waited = seconds { device.wait(timeout: .seconds(3)) }
        #expect(waited > 0.3 && waited < 0.7, "wait returned after \(waited) s")
        // Draining a paused device returns at once, keeping what it holds.
        let delay = device.state().delayFrames
        #expect(!device.drain())
        #expect(device.state().delayFrames >= delay - 441)
        device.close()
    }

    @Test func aServerThatNeverAnswersFailsAfterAFewSeconds() throws {
        let dir = try Paths.temporaryDirectory("motet-mute")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A socket that accepts connections (in its backlog) and never says a word.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = dir + "/native"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 8) == 0)
        var thrown: OutputError?
        let elapsed = seconds {
            do throws(OutputError) {
                _ = try PulseOutput(clientName: "motet-test", server: "unix:" + path)
            } catch {
                thrown = error
            }
        }
        #expect(elapsed > 4 && elapsed < 8, "gave up after \(elapsed) s")
        #expect(thrown?.description.contains("did not answer") == true, "\(String(describing: thrown))")
    }

    @Test func noServerFailsWithOneClearLine() throws {
        let dir = try Paths.temporaryDirectory("motet-nopulse")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect {
            _ = try PulseOutput(clientName: "motet-test", server: "unix:\(dir)/native")
        } throws: { error in
            let text = (error as? OutputError)?.description ?? ""
            return text.contains("PulseAudio") && text.contains("--output") && !text.contains("\n")
        }
    }
}
