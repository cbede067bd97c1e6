import MotetConfiguration
import Testing

/// `--prebuffer`, `--reconnect-for`, `--network-timeout`: their defaults, values and limits.
@Suite struct NetworkOptionTests {
    @Test func defaultsAndValues() throws {
        let d = try settings(["http://radio.example/live.ogg"])
        #expect(d.prebuffer == .milliseconds(1500) && d.reconnectFor == .seconds(60) && d.networkTimeout == .seconds(15))
        let s = try settings(["--prebuffer", "2.5", "--reconnect-for", "2:00", "--network-timeout=5", "a.ogg"])
        #expect(s.prebuffer == .milliseconds(2500) && s.reconnectFor == .seconds(120) && s.networkTimeout == .seconds(5))
        #expect(try settings(["--reconnect-for", "0", "a.ogg"]).reconnectFor == .zero)
    }

    @Test func valuesOutOfRangeAreNamed() {
        expectUsageError(["--prebuffer", "11", "a.ogg"], "motet: --prebuffer: '11': the pre-buffer is at most 10 seconds.")
        expectUsageError(["--network-timeout", "0.5", "a.ogg"], "motet: --network-timeout: '0.5': the network timeout is at least 1 second.")
        #expect(usageError(["--reconnect-for", "soon", "a.ogg"]) != nil)
    }
}
