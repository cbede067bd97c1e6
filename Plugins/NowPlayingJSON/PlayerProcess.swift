#if canImport(Glibc)
import Glibc
#endif

/// Which process wrote the state file, so that a reader can tell a file left behind by a player
/// that crashed (or was killed) from a live one: the pid alone is not enough, as pids are reused.
///
/// `startTime` is field 22 of `/proc/PID/stat` (`starttime`: when the process started, in clock
/// ticks after boot). The file is stale when `/proc/PID/stat` is missing or its field 22 differs;
/// the README shows the check in shell.
package struct PlayerProcess: Sendable {
    package let pid: Int64
    /// Field 22 of /proc/self/stat; nil where /proc cannot be read.
    package let startTime: Int64?
    /// Unix time (microseconds) when the delegate started, for people reading the file.
    package let startedAtMicros: Int64

    package static func current() -> PlayerProcess {
        PlayerProcess(pid: Int64(getpid()), startTime: statStartTime(), startedAtMicros: Clock.wallMicros())
    }

    /// `starttime` from /proc/self/stat. The second field (the command name) is in parentheses
    /// and may hold spaces or parentheses itself, so fields are counted after its last ')'.
    package static func statStartTime() -> Int64? {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return parseStartTime(bytes[..<count])
    }

    /// Field 22 of a /proc/PID/stat line, or nil when it has no such field.
    package static func parseStartTime(_ line: ArraySlice<UInt8>) -> Int64? {
        guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After "pid (comm)" come fields 3, 4, …: field 22 is the 20th of them.
        let fields = line[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count >= 20 else { return nil }
        return Int64(String(decoding: fields[19], as: UTF8.self))
    }
}
