import Testing

@testable import MotetEvents
import MotetSystem

/// `RepeatedMessageLimiter`: a message that repeats is said once, then summed up at most once per
/// 10 s, and once at the end; against a scripted clock.
@Suite struct RepeatedMessageLimiterTests {
    private let clock = Locked(MonotonicInstant(nanoseconds: 0) + .seconds(5))
    private func limiter() -> RepeatedMessageLimiter {
        RepeatedMessageLimiter { [clock] in clock.withLock { $0 } }
    }
    private func advance(seconds: Double) { clock.withLock { $0 = $0 + .seconds(seconds) } }

    private let junk = "motet: cannot play junk.ogg: this is not an Ogg file"

    @Test func aFloodIsSaidOnceThenAtMostOneLinePerTenSecondsAndOnceAtTheEnd() {
        var limiter = limiter()
        var written: [String] = []
        // 1000 a second for 25 s.
        for _ in 0..<25_000 {
            written += limiter.lines(for: junk)
            advance(seconds: 0.001)
        }
        written += limiter.finish()
        #expect(
            written == [
                junk,
                "motet: repeated 10000 times in the last 10 s: cannot play junk.ogg: this is not an Ogg file",
                "motet: repeated 10000 times in the last 10 s: cannot play junk.ogg: this is not an Ogg file",
                "motet: repeated 4999 times in the last 5 s: cannot play junk.ogg: this is not an Ogg file",
            ])
    }

    @Test func differentMessagesAreEachSaidAndCountedApart() {
        var limiter = limiter()
        let lost = "motet: lost the ALSA device; will resume when it is back"
        #expect(limiter.lines(for: junk) == [junk])
        #expect(limiter.lines(for: lost) == [lost])
        #expect(limiter.lines(for: junk) == [])
        #expect(limiter.lines(for: junk) == [])
        advance(seconds: 10)
        // Another message is said at once, and the junk's repeats that are due come first.
        let other = "[log] cannot write /full/log.txt"
        #expect(limiter.lines(for: other) == ["motet: repeated 2 times in the last 10 s: cannot play junk.ogg: this is not an Ogg file", other])
        #expect(limiter.lines(for: lost) == [lost], "said again in full: nothing of it was left unsaid")
        #expect(limiter.lines(for: lost) == [])
        advance(seconds: 2)
        #expect(limiter.finish() == ["motet: repeated once in the last 2 s: lost the ALSA device; will resume when it is back"])
        #expect(limiter.finish() == [], "what was said at the end is not said twice")
    }

    @Test func memoryStaysBoundedAndTheRepeatsOfAForgottenMessageAreSaidFirst() {
        var limiter = limiter()
        #expect(limiter.lines(for: junk) == [junk])
        #expect(limiter.lines(for: junk) == [])
        for n in 1..<RepeatedMessageLimiter.capacity {
            advance(seconds: 0.001)
            #expect(limiter.lines(for: "motet: notice \(n)") == ["motet: notice \(n)"])
        }
        advance(seconds: 0.001)
        // Full: the oldest (the junk's) is forgotten, its unsaid repeat said on the way out.
        #expect(
            limiter.lines(for: "motet: one more")
                == ["motet: repeated once in the last 1 s: cannot play junk.ogg: this is not an Ogg file", "motet: one more"])
        #expect(limiter.lines(for: junk) == [junk], "said anew once forgotten")
    }
}
