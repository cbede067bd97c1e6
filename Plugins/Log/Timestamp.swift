#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timestamps for log lines: ISO 8601 in UTC with milliseconds,
/// e.g. `2026-11-30T13:45:01.123Z`.
enum Timestamp {
    /// The current time, formatted.
    static func now() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        var t = ts.tv_sec
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
        let seconds = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let millis = Int(ts.tv_nsec / 1_000_000)
        let m = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(seconds).\(m)Z"
    }
}
