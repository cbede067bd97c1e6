import Foundation
import MotetTestSupport
import Testing

/// The test harness itself: a child that hangs with its output open fails its test after the
/// timeout, instead of blocking the whole run (which CI would only end after 90 minutes).
@Suite struct ShellTimeoutTests {
    @Test func aHungChildFailsWithinItsTimeout() throws {
        let started = Stopwatch()
        #expect(throws: TestError.self) {
            try Shell.run(["sh", "-c", "echo started; sleep 60"], timeout: 1)
        }
        #expect(started.seconds < 10)
    }
}
