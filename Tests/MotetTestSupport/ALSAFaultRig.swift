import Foundation

/// A real-time ALSA test device that injects faults: Tests/ALSAFault (motetfault.h describes it;
/// motetfault_clock.c, motetfault_callbacks.c and motetfault_open.c), an alsa-lib I/O plugin
/// (ioplug), built with `cc` into the rig's directory and made ALSA's `default` PCM through a
/// private configuration (ALSA_CONFIG_PATH, which replaces the system's).
///
/// The device plays in real time (its pointer follows CLOCK_MONOTONIC), underruns by itself when
/// its buffer runs dry, is a ring that `snd_pcm_rewind` takes frames back from (logged as
/// `rewind`), captures every frame it plays (not the ones a prepare, drop or rewind discards),
/// and logs each event with the frame count of the run and a monotonic time. Faults fire once, at
/// frame counts of the run. `stop()` (or deinit) removes the directory.
public final class ALSAFaultRig: @unchecked Sendable {
    /// One line of the device's log.
    public struct Event: Sendable, CustomStringConvertible {
        /// open, open-refused, params, start, write, rewind, stall, underrun, xrun, suspend, resume,
        /// unplug, prepare, stop, pause, unpause, close.
        public var name: String
        /// Frames played in the run when it happened.
        public var total: Int
        /// Monotonic time, microseconds.
        public var micros: Int64
        /// The other `key=value` fields (queued, dropped, frames, late_us, refused...).
        public var fields: [String: String]

        /// An integer field, or nil.
        public func int(_ key: String) -> Int? { fields[key].flatMap { Int($0) } }

        public var description: String {
            "\(name) total=\(total) " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    /// Faults to inject, at frames played in the run (see Tests/ALSAFault/motetfault.h).
    public struct Faults: Sendable {
        /// The application is late once: the next write sleeps for the buffer time + 150 ms, so the
        /// device underruns by itself.
        public var stallAt: [Int] = []
        /// An underrun reported with frames still queued (a glitching device).
        public var xrunAt: [Int] = []
        /// A system suspend.
        public var suspendAt: [Int] = []
        /// The device disappears (ENODEV) until `replug()`.
        public var unplugAt: [Int] = []
        /// The device disappears (ENODEV, until `replug()`) right after the transfer that gives it
        /// its Nth frame of the run (taking that transfer whole, playing none of it).
        public var unplugAfterWrite: Int?
        /// Whether the device implements resume (without it, only prepare restarts it).
        public var canResume = false
        /// A period clock out of step with the stream: after each start and write, a tick comes
        /// `earlyMicros` before the frames queued fall to `queued`, then one every period.
        public var tickBefore: (queued: Int, earlyMicros: Int)?

        public init(
            stallAt: [Int] = [], xrunAt: [Int] = [], suspendAt: [Int] = [], unplugAt: [Int] = [],
            unplugAfterWrite: Int? = nil, canResume: Bool = false, tickBefore: (queued: Int, earlyMicros: Int)? = nil
        ) {
            self.tickBefore = tickBefore
            self.stallAt = stallAt
            self.xrunAt = xrunAt
            self.suspendAt = suspendAt
            self.unplugAt = unplugAt
            self.unplugAfterWrite = unplugAfterWrite
            self.canResume = canResume
        }
    }

    /// The rig's own temporary directory.
    public let directory: String
    /// The configuration file (ALSA_CONFIG_PATH).
    public var configPath: String { directory + "/asound.conf" }
    /// What the device played, raw interleaved S16_LE.
    public var capturePath: String { directory + "/capture.raw" }
    /// The device's event log.
    public var logPath: String { directory + "/fault.log" }
    /// While this file exists, the device cannot be opened (created by an unplug fault).
    public var gonePath: String { directory + "/gone" }
    /// What a child process needs so that ALSA's `default` is this device.
    public var environment: [String: String] { ["ALSA_CONFIG_PATH": configPath] }

    /// The plugin's C files in Tests/ALSAFault (with the private header motetfault.h).
    static let sources = ["motetfault_clock.c", "motetfault_callbacks.c", "motetfault_open.c"]

    /// Builds the plugin and writes the configuration.
    public init(_ faults: Faults) throws {
        directory = try Paths.temporaryDirectory("motet-alsafault")
        let library = directory + "/libasound_module_pcm_motetfault.so"
        try Shell.check([
            "cc", "-std=gnu11", "-DPIC", "-Wall", "-Wextra", "-Werror", "-O2", "-shared", "-fPIC", "-Wl,-z,defs",
            "-o", library,
        ] + Self.sources.map { Paths.packageRoot + "/Tests/ALSAFault/" + $0 } + ["-lasound"])
        func list(_ frames: [Int]) -> String { "\"" + frames.map(String.init).joined(separator: " ") + "\"" }
        var device = """
            type motetfault capture "\(capturePath)" log "\(logPath)" gone "\(gonePath)"
            resume \(faults.canResume ? "yes" : "no")
            """
        if !faults.stallAt.isEmpty { device += " stall_at \(list(faults.stallAt))" }
        if !faults.xrunAt.isEmpty { device += " xrun_at \(list(faults.xrunAt))" }
        if !faults.suspendAt.isEmpty { device += " suspend_at \(list(faults.suspendAt))" }
        if !faults.unplugAt.isEmpty { device += " unplug_at \(list(faults.unplugAt))" }
        if let n = faults.unplugAfterWrite { device += " unplug_after_write \(list([n]))" }
        if let t = faults.tickBefore { device += " tick_before_queued \(t.queued) tick_early_us \(t.earlyMicros)" }
        let config = """
            pcm_type.motetfault { lib "\(library)" }
            pcm.!default { \(device) }

            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    /// Everything played so far.
    public func capturedBytes() -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: capturePath)))) ?? []
    }

    /// The device's log so far.
    public func events() -> [Event] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let name = words.first else { return nil }
            var fields: [String: String] = [:]
            for w in words.dropFirst() {
                guard let eq = w.firstIndex(of: "=") else { continue }
                fields[String(w[..<eq])] = String(w[w.index(after: eq)...])
            }
            return Event(
                name: String(name), total: Int(fields["total"] ?? "") ?? -1,
                micros: Int64(fields["us"] ?? "") ?? -1, fields: fields)
        }
    }

    /// Plugs the device back in after an unplug fault.
    public func replug() {
        try? FileManager.default.removeItem(atPath: gonePath)
    }

    /// Removes the directory.
    public func stop() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
