import Foundation
import MotetEvents
import MotetOutput
import MotetTestSupport
import Testing

@Suite struct NullOutputTests {
    let format = AudioFormat(sampleRate: 44100, channels: 2)
    var oneSecond: [Float] { [Float](repeating: 0.25, count: 44100 * 2) }

    @Test func playingThreeSecondsTakesThreeSecondsWhenPaced() throws {
        let device = NullOutput(untimed: false)
        try device.open(format)
        let driver = DeviceDriver(device, channels: 2)
        let threeSeconds = oneSecond + oneSecond + oneSecond
        var accepted = 0
        let elapsed = try seconds {
            accepted = try driver.play(threeSeconds)
            // Written at most one buffer (2 s, refilled when half of it is free) ahead of what is heard.
            #expect(driver.heard >= 44100 - 44100 / 10 && driver.heard <= 2 * 44100, "heard \(driver.heard)")
            #expect(device.drain())
        }
        #expect(accepted == 3 * 44100)
        #expect(elapsed >= 2.97 && elapsed < 3.3, "took \(elapsed) s")
        #expect(driver.heard == 3 * 44100)
    }

    @Test func untimedTakesEverythingAtOnceAndCountsAllAsHeard() throws {
        let device = NullOutput(untimed: true)
        try device.open(format)
        let driver = DeviceDriver(device, channels: 2)
        var accepted = 0
        let elapsed = try seconds {
            for _ in 0..<10 { accepted += try driver.play(oneSecond) }
        }
        #expect(accepted == 441_000)
        #expect(elapsed < 0.2, "took \(elapsed) s")
        #expect(driver.heard == 441_000)
        #expect(device.state().delayFrames == 0 && !device.state().playing)
    }

    @Test func heardFollowsTheClockAndStandsStillWhenPaused() throws {
        let device = NullOutput(untimed: false)
        try device.open(format)
        let driver = DeviceDriver(device, channels: 2)
        let threeSeconds = [Float](repeating: 0.1, count: 44100 * 2 * 3)
        let start = Stopwatch()
        try driver.play(threeSeconds, giveUp: 0.6)
        let heard = Double(driver.heard) / 44100
        let elapsed = start.seconds
        #expect(abs(heard - elapsed) < 0.1, "heard \(heard) s after \(elapsed) s")
        #expect(device.state().playing)
        device.setPaused(true)
        let atPause = driver.heard
        #expect(device.state().freeFrames == 0 && !device.state().playing)
        usleep(300_000)
        #expect(driver.heard == atPause)
        device.setPaused(false)
        try driver.play(threeSeconds, giveUp: 0.3)
        #expect(driver.heard > atPause + 44100 / 5)
        driver.reset()
        #expect(driver.heard == 0 && device.state().delayFrames == 0)
    }

    @Test func wakeupEndsAWaitAndADrainSoon() throws {
        let device = NullOutput(untimed: false)
        try device.open(format)
        let driver = DeviceDriver(device, channels: 2)
        try driver.play([Float](repeating: 0, count: 44100 * 2), giveUp: 0.3)
        device.setPaused(true)  // full, and no room will come while paused
        Thread {
            usleep(200_000)
            device.wakeup()
        }.start()
        let waited = seconds { device.wait(timeout: .seconds(2)) }
        #expect(waited > 0.15 && waited < 0.35, "wait returned after \(waited) s")
        device.setPaused(false)
        Thread {
            usleep(50_000)
            device.wakeup()
        }.start()
        var completed = true
        let drained = seconds { completed = device.drain() }
        #expect(!completed && drained < 0.15, "drain returned \(completed) after \(drained) s")
        // A wakeup that nobody waited for ends the next wait at once.
        device.wakeup()
        #expect(seconds { device.wait(timeout: .seconds(1)) } < 0.05)
    }
}
