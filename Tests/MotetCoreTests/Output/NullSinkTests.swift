import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Testing

@Suite struct NullSinkTests {
    let format = AudioFormat(sampleRate: 44100, channels: 2)
    var oneSecond: [Float] { [Float](repeating: 0.25, count: 44100 * 2) }

    @Test func oneSecondTakesOneSecondWhenPaced() throws {
        let sink = NullSink(untimed: false)
        try sink.open(format)
        var accepted = 0
        let elapsed = try seconds { accepted = try writeAll(sink, oneSecond, channels: 2) }
        #expect(accepted == 44100)
        #expect(elapsed >= 0.97 && elapsed < 1.25, "took \(elapsed) s")
        #expect(sink.heardFrames >= 44100 - 2205 && sink.heardFrames <= 44100)
        sink.drain()
        #expect(sink.heardFrames == 44100)
    }

    @Test func untimedReturnsAtOnceAndCountsAllAsHeard() throws {
        let sink = NullSink(untimed: true)
        try sink.open(format)
        var accepted = 0
        let elapsed = try seconds {
            for _ in 0..<10 { accepted += try writeAll(sink, oneSecond, channels: 2) }
        }
        #expect(accepted == 441_000)
        #expect(elapsed < 0.2, "took \(elapsed) s")
        #expect(sink.heardFrames == 441_000)
    }

    @Test func heardFramesAdvancesWithTheClockAndStopsWhenPaused() throws {
        let sink = NullSink(untimed: false)
        try sink.open(format)
        let writer = Thread { _ = try? writeAll(sink, [Float](repeating: 0.1, count: 44100 * 2 * 3), channels: 2, giveUp: 5) }
        let start = Date()
        writer.start()
        usleep(600_000)
        let heard = Double(sink.heardFrames) / 44100
        let elapsed = Date().timeIntervalSince(start)
        #expect(abs(heard - elapsed) < 0.1, "heard \(heard) s after \(elapsed) s")
        sink.pause()
        let atPause = sink.heardFrames
        usleep(300_000)
        #expect(sink.heardFrames == atPause)
        sink.resume()
        usleep(300_000)
        #expect(sink.heardFrames > atPause + 44100 / 5)
        sink.interruptWrite()
        sink.flush()
        #expect(sink.heardFrames == 0)
    }

    @Test func interruptWriteEndsABlockedWriteSoon() throws {
        let sink = NullSink(untimed: false)
        try sink.open(format)
        Thread {
            usleep(200_000)
            sink.interruptWrite()
        }.start()
        var accepted = 0
        let elapsed = try seconds {
            accepted = try [Float](repeating: 0, count: 44100 * 2 * 2).withUnsafeBufferPointer { try sink.write($0) }
        }
        #expect(elapsed < 0.35, "took \(elapsed) s")
        #expect(accepted > 0 && accepted < 44100)
    }
}
