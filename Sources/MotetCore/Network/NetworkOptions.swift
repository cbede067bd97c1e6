/// How Motet talks to HTTP servers: the same for streams and for fetched documents (playlists).
public struct NetworkOptions: Sendable, Equatable {
    /// `User-Agent: Motet/<version>`.
    public var userAgent = "Motet"
    /// The time to connect, and with (almost) nothing arriving before a transfer counts as stalled
    /// for good (`--network-timeout`; libcurl takes whole seconds).
    public var timeout: Duration = .seconds(15)
    /// The audio buffered before playback starts, and again after the buffer ran dry
    /// (`--prebuffer`).
    public var prebuffer: Duration = .milliseconds(1500)
    /// How long a lost stream is retried before moving on (`--reconnect-for`).
    public var reconnectFor: Duration = .seconds(60)

    /// At most this many redirects (a loop ends there).
    public static let maximumRedirects = 8
    /// Below this many bytes a second for `timeout`, a transfer has stalled.
    public static let lowSpeedBytesPerSecond = 64
    /// The back-off between reconnection attempts: 1, 2, 4 … 30 s.
    public static let backoffCap: Duration = .seconds(30)

    public init() {}

    /// The wait before reconnection attempt `attempt` (0-based): 1, 2, 4, 8, 16, 30, 30 … s.
    public static func backoff(attempt: Int) -> Duration {
        attempt >= 5 ? backoffCap : min(backoffCap, .seconds(1 << max(0, attempt)))
    }
}

extension StringProtocol {
    /// Whether `needle` occurs in the text (without Foundation or the string-processing module).
    func includes(_ needle: String) -> Bool {
        let hay = Array(utf8)
        let n = Array(needle.utf8)
        guard !n.isEmpty else { return true }
        guard hay.count >= n.count else { return false }
        for start in 0...(hay.count - n.count) where hay[start] == n[0] && Array(hay[start..<start + n.count]) == n {
            return true
        }
        return false
    }
}
