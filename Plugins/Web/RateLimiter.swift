#if canImport(Glibc)
import Glibc
#endif
import MotetPluginKit

/// Requests per client address: a token bucket of `WebLimits.burst` refilled at
/// `WebLimits.requestsPerSecond`. A client past it gets 429 until its bucket refills; the others
/// are not affected. At most `maximumAddresses` are remembered (then all are forgotten: a flood
/// from many addresses is the connection limits' business).
final class RateLimiter: Sendable {
    static let maximumAddresses = 4096
    private struct Bucket {
        var tokens: Double
        var at: Int64
    }
    private let buckets = Locked([String: Bucket]())

    /// Whether a request from `address` may go on now (`nowMicros`: CLOCK_MONOTONIC).
    func allow(_ address: String, nowMicros: Int64) -> Bool {
        buckets.withLock { all in
            if all[address] == nil, all.count >= Self.maximumAddresses { all.removeAll() }
            var b = all[address] ?? Bucket(tokens: WebLimits.burst, at: nowMicros)
            b.tokens = min(WebLimits.burst, b.tokens + Double(max(0, nowMicros - b.at)) / 1e6 * WebLimits.requestsPerSecond)
            b.at = nowMicros
            let allowed = b.tokens >= 1
            if allowed { b.tokens -= 1 }
            all[address] = b
            return allowed
        }
    }
}
