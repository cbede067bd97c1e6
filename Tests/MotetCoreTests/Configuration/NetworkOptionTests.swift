import MotetConfiguration
import Testing

/// `--prebuffer`, `--reconnect-for`, `--network-timeout`: their defaults, values and limits.
@Suite struct NetworkOptionTests {
    @Test func defaultsAndValues() throws {
        let d = try settings(["http://radio.example/live.ogg"])
        #expect(d.prebufferMicros == 1_500_000 && d.reconnectMicros == 60_000_000 && d.networkTimeoutMicros == 15_000_000)
        let s = try settings(["--prebuffer", "2.5", "--reconnect-for", "2:00", "--network-timeout=5", "a.ogg"])
        #expect(s.prebufferMicros == 2_500_000 && s.reconnectMicros == 120_000_000 && s.networkTimeoutMicros == 5_000_000)
        #expect(try settings(["--reconnect-for", "0", "a.ogg"]).reconnectMicros == 0)
    }

    @Test func valuesOutOfRangeAreNamed() {
        expectUsageError(["--prebuffer", "11", "a.ogg"], "motet: --prebuffer: '11': the pre-buffer is at most 10 seconds.")
        expectUsageError(["--network-timeout", "0.5", "a.ogg"], "motet: --network-timeout: '0.5': the network timeout is at least 1 second.")
        #expect(usageError(["--reconnect-for", "soon", "a.ogg"]) != nil)
    }
}
