import Foundation
import MotetTestSupport

/// A real, small file system for fault tests: a tmpfs of a given size (a disk that fills up) or a
/// read-only one, mounted on a fresh directory. Needs root (CI and the sandbox are root). Unmount
/// with `unmount()` in a `defer`; motet must have exited first.
final class TmpfsMount {
    /// The mount point.
    let path: String

    /// Mounts a tmpfs of `kibibytes` (rounded up to whole pages by the kernel), read-only when asked.
    init(kibibytes: Int = 1024, readOnly: Bool = false, label: String = "motet-fault") throws {
        path = try Paths.temporaryDirectory(label)
        let options = readOnly ? "ro,size=\(kibibytes)k" : "size=\(kibibytes)k,mode=0755"
        let r = try Shell.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path])
        guard r.status == 0 else {
            throw TestError.failed("mount -t tmpfs -o \(options) failed (these tests run as root): \(r.stderr)")
        }
    }

    /// A path inside the mount.
    func file(_ name: String) -> String { path + "/" + name }

    /// Fills the file system to the last page with `name` (dd stops at "No space left on device").
    func fill(_ name: String = "filler") throws {
        _ = try Shell.run(["dd", "if=/dev/zero", "of=\(file(name))", "bs=4096"], timeout: 60)
        // Proof that it is full: not one more byte fits.
        let probe = try Shell.run(["dd", "if=/dev/zero", "of=\(file(".probe"))", "bs=4096", "count=1"])
        try? FileManager.default.removeItem(atPath: file(".probe"))
        guard probe.status != 0 else { throw TestError.failed("\(path) is not full after filling it") }
    }

    /// The names in the mount, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    /// Unmounts (lazily if something still holds it) and removes the mount point.
    func unmount() {
        if (try? Shell.run(["umount", path]))?.status != 0 { _ = try? Shell.run(["umount", "-l", path]) }
        rmdir(path)
    }
}

/// A WAV file read back strictly: the RIFF size is the file length minus 8, the `data` chunk ends
/// exactly at the end of the file and holds a whole number of frames.
struct StrictWAV {
    var channels = 0
    var rate = 0
    var bits = 0
    var blockAlign = 0
    /// Where the samples start, and how many bytes of them there are.
    var dataOffset = 0
    var dataSize = 0
    var fileSize = 0

    var frames: Int { blockAlign > 0 ? dataSize / blockAlign : 0 }

    init(_ path: String) throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let head = [UInt8](try handle.read(upToCount: 4096) ?? Data())
        fileSize = Int(try handle.seekToEnd())
        func u32(_ o: Int) -> Int { Int(head[o]) | Int(head[o + 1]) << 8 | Int(head[o + 2]) << 16 | Int(head[o + 3]) << 24 }
        func u16(_ o: Int) -> Int { Int(head[o]) | Int(head[o + 1]) << 8 }
        guard head.count >= 44, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WAVE".utf8) else {
            throw TestError.failed("\(path) is not a RIFF/WAVE file (\(fileSize) bytes)")
        }
        guard u32(4) == fileSize - 8 else {
            throw TestError.failed("\(path): the RIFF size says \(u32(4) + 8) bytes, the file has \(fileSize)")
        }
        var offset = 12
        while offset + 8 <= head.count {
            let id = String(decoding: head[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "fmt " {
                channels = u16(offset + 10)
                rate = u32(offset + 12)
                blockAlign = u16(offset + 20)
                bits = u16(offset + 22)
            } else if id == "data" {
                dataOffset = offset + 8
                dataSize = size
                guard dataOffset + dataSize == fileSize else {
                    throw TestError.failed("\(path): the data chunk says \(size) bytes, the file has \(fileSize - dataOffset)")
                }
                guard blockAlign > 0, dataSize % blockAlign == 0 else {
                    throw TestError.failed("\(path): \(dataSize) data bytes is not a whole number of \(blockAlign)-byte frames")
                }
                return
            }
            offset += 8 + size + (size & 1)
        }
        throw TestError.failed("\(path) has no data chunk")
    }

    /// The sample bytes.
    func data(_ path: String) throws -> Data {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(dataOffset))
        return try handle.read(upToCount: dataSize) ?? Data()
    }
}

/// The lines of a program's stderr that mention `needle`.
func lines(_ text: String, mentioning needle: String) -> [Substring] {
    text.split(separator: "\n").filter { $0.contains(needle) }
}

/// Whether `data` equals the first `data.count` bytes of `reference` (memcmp, fast on 50 MB).
func isPrefix(_ data: Data, of reference: [UInt8]) -> Bool {
    guard data.count <= reference.count else { return false }
    return data.withUnsafeBytes { d in
        reference.withUnsafeBytes { r in d.count == 0 || memcmp(d.baseAddress!, r.baseAddress!, d.count) == 0 }
    }
}

/// What a bounded run of motet did.
struct BoundedRun {
    /// False when motet was still running at the deadline (then it was stopped).
    var ended: Bool
    /// The exit status (nil when a signal ended it).
    var status: Int32?
    var stdout: String
    var stderr: String
}

/// Runs the real motet with `run`'s private environment, its output in files, and stops it when
/// it has not ended within `timeout` seconds, so that a hang fails the test instead of blocking it
/// (`Shell.run` cannot time out while the child keeps its stdout open).
func runBounded(_ run: MotetRun, _ arguments: [String], timeout: Double = 30) throws -> BoundedRun {
    let dir = try Paths.temporaryDirectory("motet-run")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let motet = try SpawnedProcess(
        [Paths.motet] + arguments, environment: run.environment, stdout: dir + "/stdout", stderr: dir + "/stderr")
    let ended = motet.wait(timeout: timeout)
    motet.stop()
    return BoundedRun(
        ended: ended, status: motet.exitCode,
        stdout: (try? String(contentsOfFile: dir + "/stdout", encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: dir + "/stderr", encoding: .utf8)) ?? "")
}

/// Whether process `pid` (its main thread) blocks `signal`, from /proc/PID/status (`SigBlk`).
/// Motet blocks SIGINT, SIGTERM and SIGHUP first thing in main and takes them on a thread of its
/// own; before that, a signal's default action ends it before it has created any file.
func blocksSignal(_ pid: pid_t, _ signal: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
        let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
}
