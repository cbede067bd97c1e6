import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Synchronization
import Testing

/// PulseSink against a real, private PulseAudio server (PulseRig) whose real-time pipe sink
/// captures what was played.
@Suite(.serialized) struct PulseSinkTests {
    func makeSink(_ rig: PulseRig, events: EventLog? = nil) throws -> PulseSink {
        let sink = try PulseSink(clientName: "motet-test", server: rig.serverAddress, device: PulseRig.sinkName)
        sink.onEvent = events?.handler
        return sink
    }

    /// The captured frames from the first to the last non-silent one.
    func nonSilent(_ bytes: [UInt8], channels: Int = 2) -> [UInt8] {
        let frameBytes = 2 * channels
        guard let r = PulseRig.nonSilentFrames(bytes, frameBytes: frameBytes) else { return [] }
        return Array(bytes[(r.lowerBound * frameBytes)..<(r.upperBound * frameBytes)])
    }


    @Test func aSweepArrivesBitExactWithTheExactFrameCount() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let signal = try TestSignal(seconds: 2)
        let sink = try makeSink(rig)
        try sink.open(signal.format)
        var accepted = 0
        let elapsed = try seconds {
            accepted = try writeAll(sink, signal.floats, channels: 2)
            sink.drain()
        }
        #expect(accepted == signal.frames)
        #expect(sink.heardFrames == Int64(signal.frames))
        sink.close()
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
        let sink = try makeSink(rig)
        try sink.open(signal.format)
        #expect(try writeAll(sink, signal.floats, channels: channels) == signal.frames)
        sink.drain()
        sink.close()
        let captured = nonSilent(rig.captureAfterSound() ?? [], channels: channels)
        #expect(captured.count == nonSilent(signal.bytes, channels: channels).count)
        #expect(difference(captured, nonSilent(signal.bytes, channels: channels), frameBytes: 2 * channels) == nil)
    }

    @Test func aPhoneCallCorksAndUncorksTheMusic() throws {
        let rig = try PulseRig(roleCork: true)
        defer { rig.stop() }
        let events = EventLog()
        let sink = try makeSink(rig, events: events)
        let tone = try TestSignal(seconds: 1, synth: ["sine", "440"])
        try sink.open(tone.format)
        let stop = Atomic<Bool>(false)
        let writer = Thread {
            while !stop.load(ordering: .relaxed) { _ = try? writeAll(sink, tone.floats, channels: 2, giveUp: 0.5) }
        }
        writer.start()
        defer { stop.store(true, ordering: .relaxed) }
        usleep(500_000)
        let phone = Thread { try? rig.playPhoneStream(seconds: 1) }
        phone.start()
        #expect(events.wait(for: .corkRequested, timeout: 5), "events: \(events.all)")
        // The player's answer to an interruption: pause (PulseAudio only uncorks a client that corked).
        sink.pause()
        let heardAtCork = sink.heardFrames
        usleep(300_000)
        #expect(abs(sink.heardFrames - heardAtCork) < 441)
        #expect(events.wait(for: .uncorkRequested, timeout: 10), "events: \(events.all)")
        sink.resume()
        let resumedAt = sink.heardFrames
        #expect(try Shell.waitUntil(timeout: 3) { sink.heardFrames > resumedAt + 4410 })
        #expect(events.all == [.corkRequested, .uncorkRequested])
        stop.store(true, ordering: .relaxed)
        sink.interruptWrite()
        _ = try Shell.waitUntil(timeout: 2) { writer.isFinished }
        sink.close()
    }

    @Test func losingTheServerIsReportedAndPlaybackResumesWhenItIsBack() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let events = EventLog()
        let sink = try makeSink(rig, events: events)
        let tone = try TestSignal(seconds: 0.5, synth: ["sine", "440"])
        try sink.open(tone.format)
        let stop = Atomic<Bool>(false)
        let zeroWrites = Atomic<Int>(0)
        let writer = Thread {
            while !stop.load(ordering: .relaxed) {
                let n = (try? tone.floats.withUnsafeBufferPointer { try sink.write($0) }) ?? -1
                if n == 0 {
                    zeroWrites.add(1, ordering: .relaxed)
                    usleep(20_000)
                }
            }
            sink.drain()
        }
        writer.start()
        usleep(700_000)
        rig.kill()
        #expect(events.wait(for: .lost, timeout: 3), "events: \(events.all)")
        usleep(300_000)
        #expect(zeroWrites.load(ordering: .relaxed) > 0, "writes while lost should return 0")
        try rig.restart()
        #expect(events.wait(for: .restored, timeout: 10), "events: \(events.all)")
        // Writing continues into the new server.
        let afterRestore = sink.heardFrames
        #expect(try Shell.waitUntil(timeout: 3) { sink.heardFrames > afterRestore + 4410 })
        stop.store(true, ordering: .relaxed)
        sink.interruptWrite()
        #expect(try Shell.waitUntil(timeout: 3) { writer.isFinished })
        #expect(events.all == [.lost, .restored])

        // And what is written now arrives bit-exact.
        usleep(300_000)  // the FIFO reader catches up with the drained tone
        let mark = rig.capturedByteCount
        let sweep = try TestSignal(seconds: 1)
        #expect(try writeAll(sink, sweep.floats, channels: 2) == sweep.frames)
        sink.drain()
        sink.close()
        let captured = nonSilent(rig.captureAfterSound(from: mark) ?? [])
        #expect(difference(captured, nonSilent(sweep.bytes)) == nil)
    }

    @Test func heardFramesFollowsRealTimeAndStopsWhenPaused() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let sink = try makeSink(rig)
        let tone = try TestSignal(seconds: 3, synth: ["sine", "440"])
        try sink.open(tone.format)
        #expect(sink.heardFrames == 0)
        let writer = Thread { _ = try? writeAll(sink, tone.floats, channels: 2, giveUp: 10) }
        let start = Date()
        writer.start()
        var samples: [(elapsed: Double, heard: Double)] = []
        for _ in 0..<4 {
            usleep(400_000)
            samples.append((Date().timeIntervalSince(start), Double(sink.heardFrames) / 44100))
        }
        for s in samples {
            // Heard lags real time by the stream's latency (~200 ms target), never leads it.
            #expect(s.heard <= s.elapsed + 0.02, "heard \(s.heard) s after \(s.elapsed) s")
            #expect(s.heard >= s.elapsed - 0.45, "heard \(s.heard) s after \(s.elapsed) s")
        }
        let rates = zip(samples, samples.dropFirst()).map { ($1.heard - $0.heard) / ($1.elapsed - $0.elapsed) }
        for r in rates { #expect(r > 0.85 && r < 1.15, "heard clock ran at \(r)× real time") }
        sink.pause()
        usleep(100_000)
        let paused = sink.heardFrames
        usleep(400_000)
        #expect(abs(sink.heardFrames - paused) < 441, "heard moved while paused")
        sink.resume()
        sink.interruptWrite()
        _ = try Shell.waitUntil(timeout: 3) { writer.isFinished }
        sink.flush()
        #expect(sink.heardFrames == 0)
        sink.close()
    }

    @Test func aTrackShorterThanTheBufferIsPlayedOutByDrain() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let signal = try TestSignal(seconds: 0.1)
        let sink = try makeSink(rig)
        try sink.open(signal.format)
        #expect(try writeAll(sink, signal.floats, channels: 2) == signal.frames)
        let elapsed = seconds { sink.drain() }
        #expect(elapsed < 1.0, "drain took \(elapsed) s")
        #expect(sink.heardFrames == Int64(signal.frames))
        sink.close()
        #expect(difference(nonSilent(rig.captureAfterSound() ?? []), nonSilent(signal.bytes)) == nil)
    }

    @Test func interruptWriteAndPauseEndABlockedWriteSoon() throws {
        let rig = try PulseRig()
        defer { rig.stop() }
        let sink = try makeSink(rig)
        let tone = try TestSignal(seconds: 3, synth: ["sine", "440"])
        try sink.open(tone.format)
        let stops: [@Sendable () -> Void] = [{ sink.interruptWrite() }, { sink.pause() }]
        for stop in stops {
            Thread {
                usleep(400_000)
                stop()
            }.start()
            var accepted = 0
            let elapsed = try seconds { accepted = try tone.floats.withUnsafeBufferPointer { try sink.write($0) } }
            #expect(elapsed > 0.3 && elapsed < 0.7, "write returned after \(elapsed) s")
            #expect(accepted > 0 && accepted < tone.frames)
        }
        // Paused: a write fills what is left of the buffer and returns instead of blocking.
        let elapsed = try seconds { _ = try tone.floats.withUnsafeBufferPointer { try sink.write($0) } }
        #expect(elapsed < 0.1)
        sink.close()
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
                _ = try PulseSink(clientName: "motet-test", server: "unix:" + path)
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
            _ = try PulseSink(clientName: "motet-test", server: "unix:\(dir)/native")
        } throws: { error in
            let text = (error as? OutputError)?.description ?? ""
            return text.contains("PulseAudio") && text.contains("--output") && !text.contains("\n")
        }
    }
}
