import Foundation
import Glibc
import MotetTestSupport
import Testing

/// `motet --output alsa` against a real-time ALSA device that misbehaves on cue (ALSAFaultRig:
/// an alsa-lib ioplug plugin). What "correct" means here:
/// - after an underrun, a suspend or a glitch, playback goes on to the end of the track, the player
///   exits 0, and the device has played every frame of the file exactly once, in order: the
///   capture equals the reference decode byte for byte. A fault costs a gap of silence, never
///   samples. (A real underrun leaves nothing unplayed in the buffer; when a recovery's prepare
///   drops frames the device still held — a device that reports an xrun early, or a suspend
///   without resume — the sink writes them again from its copy of the last buffer.)
/// - recovery is quick (the device restarts well within a second of the fault) and quiet: no
///   alsa-lib lines, no line per period, and the state does not flicker to "stalled" for a glitch.
/// - a device that disappears gives one line and the stalled state, costs no CPU while it is gone
///   (one open attempt a second), and the player still quits at once; when it comes back,
///   playback resumes from what was heard.
@Suite(.serialized) struct ALSARecoveryTests {
    static let rate = 44100
    /// Longer than the sink's 2 s ALSA buffer, so that refills (and the faults they meet) come
    /// after the first fill: a stall needs a write after its cue, and the faults below should
    /// find the device running, not only draining.
    static let seconds = 4.0
    /// Bytes per frame of the fixture (S16 stereo).
    static let frameBytes = 4
    /// The longest a recovery may take, fault to restart, in microseconds (TSan included). A
    /// recovery takes under 5 ms here; without one the sink waits a whole second. 350 ms was seen
    /// once on the 2-core machine with two builds running beside the tests, so the bound sits
    /// between the two with room for a loaded CI machine (speed itself is measured in bench/).
    static let recoveryBudgetMicros: Int64 = 750_000

    struct Played {
        var status: Int32?
        var output: String
        var rig: ALSAFaultRig
        var reference: [UInt8]
        var wallSeconds: Double
    }

    /// Plays a generated sweep through the fault device with `faults` and collects everything. A
    /// player that has not finished after 20 s (a recovery that hangs) is killed: status nil.
    func play(_ faults: ALSAFaultRig.Faults) throws -> Played {
        let r = try start(faults)
        let started = Stopwatch()
        let finished = r.process.wait(timeout: 20)
        let wall = started.seconds
        if !finished {
            Issue.record("motet did not finish within 20 s: \(r.output)")
            r.process.signal(SIGKILL)
            r.process.wait(timeout: 5)
        }
        return Played(
            status: finished ? r.process.exitCode : nil, output: r.output, rig: r.rig, reference: r.reference,
            wallSeconds: wall)
    }

    /// What every recovery test checks once the run is over.
    func expectCompleteAndExact(_ p: Played, _ label: String) {
        #expect(p.status == 0, "\(label): \(p.output)")
        #expect(p.output.contains("Finished:") && p.output.contains("completed"), "\(label): \(p.output)")
        let captured = p.rig.capturedBytes()
        #expect(captured.count == p.reference.count, "\(label): played \(captured.count / 4) frames of \(p.reference.count / 4)")
        if let first = (0..<min(captured.count, p.reference.count)).first(where: { captured[$0] != p.reference[$0] }) {
            Issue.record("\(label): the played audio differs from the reference at frame \(first / Self.frameBytes)")
        }
        // No real-time stall of seconds: the track plus the injected gaps. An injected stall
        // lasts the device's buffer time + 150 ms: 2.5 s of room was set when that buffer was
        // 0.2 s; with a longer one, the stall's extra length is added.
        let events = p.rig.events()
        var allowance = 2.5
        if events.contains(where: { $0.name == "stall" }), let buffer = events.first(where: { $0.name == "params" })?.int("buffer") {
            allowance += max(0, Double(buffer) / Double(Self.rate) - 0.2)
        }
        #expect(p.wallSeconds < Self.seconds + allowance, "\(label): took \(p.wallSeconds) s")
        // One line for the glitch (at most one per 10 s, so one in this run), nothing from
        // alsa-lib, no line per period, no stalled flicker.
        #expect(!p.output.contains("ALSA lib"), "\(label): \(p.output)")
        #expect(linesMentioning(p.output, "motet: the ALSA device ran dry or was suspended (") == 1, "\(label): \(p.output)")
        #expect(!p.output.lowercased().contains("underrun"), "\(label): \(p.output)")
        #expect(!p.output.contains("stalled"), "\(label): \(p.output)")
        #expect(!p.output.contains("lost"), "\(label): \(p.output)")
        #expect(!p.output.contains("Sanitizer"), "\(label): \(p.output)")
    }

    /// The fault event `name` (once, at `frame`) and the device restarting after it; returns
    /// (frames dropped by the recovery, microseconds from the fault to the restart). A device
    /// fault (xrun, suspend) counts from when the pointer reached it, not from when it was seen
    /// (`late_us`): the device stops there, so a player that looks late loses that time too. An
    /// underrun's `late_us` is the injected stall's (the player was away), not the player's.
    func recovery(after name: String, at frame: Int, in events: [ALSAFaultRig.Event], _ label: String) -> (
        dropped: Int, micros: Int64
    )? {
        // Injected faults happen once; an underrun may also happen by itself on a loaded machine.
        if name != "underrun" { #expect(events.filter { $0.name == name }.count == 1, "\(label): \(events)") }
        guard let i = events.firstIndex(where: { $0.name == name && $0.total == frame }) else {
            Issue.record("\(label): no \(name) at frame \(frame): \(events)")
            return nil
        }
        let fault = events[i]
        let after = events[(i + 1)...]
        guard let restart = after.first(where: { $0.name == "start" || $0.name == "resume" }) else {
            Issue.record("\(label): the device never restarted: \(events)")
            return nil
        }
        let dropped = after.prefix(while: { $0.name != "start" && $0.name != "resume" })
            .filter { $0.name == "prepare" }.compactMap { $0.int("dropped") }.reduce(0, +)
        let seenLate = name == "underrun" ? 0 : Int64(fault.int("late_us") ?? 0)
        let micros = restart.micros - fault.micros + seenLate
        #expect(micros < Self.recoveryBudgetMicros, "\(label): restarted \(micros) µs after the fault: \(events)")
        print("\(label): \(name) at frame \(frame): seen after \(seenLate) µs, dropped by the device \(dropped), restarted after \(micros) µs; \(events.filter { $0.name == "underrun" }.count) underrun(s) in the run")
        return (dropped, micros)
    }

    @Test func anUnderrunCostsSilenceNotSamples() throws {
        let at = Self.rate / 2
        let p = try play(.init(stallAt: [at]))
        expectCompleteAndExact(p, "underrun")
        let events = p.rig.events()
        // The stall makes the device run dry by itself: a real underrun, nothing left unplayed.
        guard let stall = events.firstIndex(where: { $0.name == "stall" }),
            let underrun = events[stall...].first(where: { $0.name == "underrun" })
        else {
            Issue.record("no underrun after the stall: \(events)")
            return
        }
        #expect(underrun.total > at)
        let r = recovery(after: "underrun", at: underrun.total, in: events, "underrun")
        #expect(r?.dropped == 0)
        // The silence a listener hears: from the buffer running dry to the restart.
        if let late = underrun.int("late_us"), let r { print("underrun: silence \(Int64(late) + r.micros) µs (the stall) ") }
    }

    /// dmix and ALSA's I/O plugins wake a poller every period whatever `avail_min` says. When
    /// such a tick comes just before the refill is due (the device holds a little more than the
    /// player's reserve, `ALSAOutput.reserve`, 0.5 s), the next tick is a period later,
    /// with nothing left to play: a player that waits for it and wakes a few milliseconds late
    /// (a loaded machine) underruns. Hunt 12 and CI met it about once in six runs, as a 2.15 s
    /// "recovery" in `anUnderrunCostsSilenceNotSamples` (the device ran dry before the late
    /// write, which then stalled). Here every tick comes 10 ms too early: each refill after the
    /// first second must still find a tenth of a second or more queued.
    @Test func aPeriodTickJustBeforeTheRefillIsDueStillRefillsInTime() throws {
        let reserve = Self.rate / 2
        let p = try play(.init(tickBefore: (queued: reserve, earlyMicros: 10_000)))
        let events = p.rig.events()
        #expect(p.status == 0, "\(p.output)")
        #expect(!events.contains { $0.name == "underrun" }, "the device ran dry: \(events)")
        let refills = events.filter { $0.name == "write" && $0.int("running") == 1 && $0.total >= Self.rate }
        #expect(!refills.isEmpty, "\(events)")
        let least = refills.compactMap { $0.int("queued") }.min() ?? 0
        #expect(least >= Self.rate / 10, "a refill came with \(least) frames queued: \(refills)")
        #expect(p.rig.capturedBytes() == p.reference, "played \(p.rig.capturedBytes().count / Self.frameBytes) frames of \(p.reference.count / Self.frameBytes)")
        print("refill with the ticks 10 ms early: at least \(least) frames queued (\(least * 1000 / Self.rate) ms)")
    }

    @Test func anXrunWithFramesQueuedLosesNothing() throws {
        let at = Self.rate / 2
        let p = try play(.init(xrunAt: [at]))
        expectCompleteAndExact(p, "xrun")
        let events = p.rig.events()
        let queued = events.first { $0.name == "xrun" }?.int("queued") ?? 0
        #expect(queued > 0, "the xrun should find frames in the buffer: \(events)")
        let r = recovery(after: "xrun", at: at, in: events, "xrun")
        // The prepare dropped what the device held; the sink wrote exactly that again.
        #expect(r?.dropped == queued)
    }

    @Test func aSuspendOfADeviceThatCanResumeLosesNothing() throws {
        let at = Self.rate / 2
        let p = try play(.init(suspendAt: [at], canResume: true))
        expectCompleteAndExact(p, "suspend+resume")
        let events = p.rig.events()
        let r = recovery(after: "suspend", at: at, in: events, "suspend+resume")
        #expect(r?.dropped == 0)
        #expect(events.contains { $0.name == "resume" }, "\(events)")
    }

    @Test func aSuspendOfADeviceThatCannotResumeIsPreparedAndLosesNothing() throws {
        let at = Self.rate / 2
        let p = try play(.init(suspendAt: [at], canResume: false))
        expectCompleteAndExact(p, "suspend, no resume")
        let events = p.rig.events()
        let queued = events.first { $0.name == "suspend" }?.int("queued") ?? 0
        let r = recovery(after: "suspend", at: at, in: events, "suspend, no resume")
        #expect(r?.dropped == queued)
    }

    /// An underrun, a glitch and two suspends 0.3 to 0.7 s apart. The file is 176400 frames;
    /// the stall comes with the first refill after frame 8000 (at about 66150 unless decoding is
    /// slow), the device runs dry about 0.5 s later (~88200) and the refill after that writes
    /// the rest of the file, so the glitch and the suspends usually find the player draining the
    /// end of the track. Not in the last 50 ms: alsa-lib 1.2.8's ioplug drain, which the sink
    /// calls for those, blocks and drops what is left when the device faults meanwhile.
    @Test func faultsInQuickSuccessionEachRecover() throws {
        let p = try play(.init(stallAt: [8000], xrunAt: [100_000], suspendAt: [120_000, 150_000]))
        expectCompleteAndExact(p, "burst")
        let events = p.rig.events()
        #expect(events.filter { $0.name == "xrun" }.count == 1)
        #expect(events.filter { $0.name == "suspend" }.count == 2)
        #expect(events.contains { $0.name == "underrun" })
    }

    // MARK: - The device goes away

    struct Running {
        var process: SpawnedProcess
        var rig: ALSAFaultRig
        var reference: [UInt8]
        var outputPath: String
        /// What the user saw: stdout, then stderr.
        var output: String {
            ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
                + ((try? String(contentsOfFile: outputPath + ".err", encoding: .utf8)) ?? "")
        }
    }

    func start(_ faults: ALSAFaultRig.Faults) throws -> Running {
        let rig = try ALSAFaultRig(faults)
        let run = try MotetRun("motet-alsarecovery")
        let ogg = run.path("sweep.ogg")
        try Fixtures.oggVorbis(ogg, seconds: Self.seconds, synth: ["sine", "200-3000"])
        let outputPath = run.path("output.txt")
        var env = run.environment
        for (k, v) in rig.environment { env[k] = v }
        let process = try SpawnedProcess(
            [Paths.motet, "--output", "alsa", "--no-config", "--status", "events", ogg], environment: env,
            stdout: outputPath, stderr: outputPath + ".err")
        return Running(process: process, rig: rig, reference: try Fixtures.referenceDecode(ogg), outputPath: outputPath)
    }

    /// CPU seconds (user + system) the process has used.
    func cpuSeconds(_ pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func linesMentioning(_ text: String, _ needle: String) -> Int {
        text.split(separator: "\n").filter { $0.contains(needle) }.count
    }

    @Test func aDeviceGoneForGoodGivesOneLineNoBusyLoopAndQuitsAtOnce() throws {
        let at = Self.rate / 2
        let r = try start(.init(unplugAt: [at]))
        defer { r.process.stop() }
        let noticed = try Shell.waitUntil(timeout: 10) { r.output.contains("State: stalled") }
        #expect(noticed, "\(r.output)")
        // Gone: measure what waiting costs.
        let cpuBefore = cpuSeconds(r.process.pid)
        let opensBefore = r.rig.events().filter { $0.name == "open-refused" }.count
        usleep(2_500_000)
        let cpu = cpuSeconds(r.process.pid) - cpuBefore
        let attempts = r.rig.events().filter { $0.name == "open-refused" }.count - opensBefore
        print("device gone: \(cpu) CPU s and \(attempts) reopen attempts in 2.5 s")
        #expect(cpu < 0.25, "waiting for the device used \(cpu) CPU s in 2.5 s")
        #expect((1...4).contains(attempts), "reopen attempts in 2.5 s: \(attempts)")
        #expect(r.process.isRunning)
        // One clear line, once.
        #expect(linesMentioning(r.output, "motet: lost the ALSA device; will resume when it is back") == 1, "\(r.output)")
        #expect(!r.output.contains("ALSA lib"), "\(r.output)")
        // What was played before is exactly the start of the file.
        let captured = r.rig.capturedBytes()
        #expect(captured.count == at * Self.frameBytes)
        #expect(Array(captured) == Array(r.reference.prefix(captured.count)))
        // The user quits: at once, and 0 since something played.
        let quitAt = Stopwatch()
        r.process.signal(SIGTERM)
        #expect(r.process.wait(timeout: 3), "motet did not quit within 3 s of SIGTERM")
        print("quit \(quitAt.seconds) s after SIGTERM")
        #expect(r.process.exitCode == 0, "\(r.output)")
        #expect(!r.output.contains("Sanitizer"), "\(r.output)")
    }

    @Test func aDeviceThatComesBackResumesFromWhatWasHeard() throws {
        try resumesFromWhatWasHeard(.init(unplugAt: [Self.rate / 2]))
    }

    /// Lost right after a refill was written (no delay measured since): what that refill gave was
    /// never heard. Before the delay counted the frames written since it was measured, playback
    /// resumed a refill late (half a second here; 2 of 12 runs of the test above, where the
    /// unplug fell at a period's end, CI on 2026-12-05).
    @Test func aDeviceLostJustAfterARefillResumesFromWhatWasHeard() throws {
        // The sink's buffer (2 s) is full; then two refills of a period each.
        try resumesFromWhatWasHeard(.init(unplugAfterWrite: Self.rate * 2 + Self.rate + 1))
    }

    /// Unplugs with `faults`, plugs back in a second after "stalled": the player goes on from what
    /// the device had played when it went away (the fault log's unplug), to the end.
    func resumesFromWhatWasHeard(_ faults: ALSAFaultRig.Faults) throws {
        let r = try start(faults)
        defer { r.process.stop() }
        #expect(try Shell.waitUntil(timeout: 10) { r.output.contains("State: stalled") }, "\(r.output)")
        usleep(1_000_000)
        r.rig.replug()
        #expect(r.process.wait(timeout: 15), "motet did not finish after the device came back: \(r.output)")
        #expect(r.process.exitCode == 0, "\(r.output)")
        #expect(linesMentioning(r.output, "motet: lost") == 1, "\(r.output)")
        #expect(linesMentioning(r.output, "motet: the ALSA device is back; resuming") == 1, "\(r.output)")
        #expect(r.output.contains("completed"), "\(r.output)")
        #expect(!r.output.contains("Sanitizer"), "\(r.output)")
        let log = (try? String(contentsOfFile: r.rig.logPath, encoding: .utf8)) ?? ""
        let at = try #require(r.rig.events().first { $0.name == "unplug" }?.total, "no unplug: \(log)")
        // Played: the file up to the unplug, then from (about) there to the end, nothing else.
        let captured = r.rig.capturedBytes()
        let head = at * Self.frameBytes
        #expect(Array(captured.prefix(head)) == Array(r.reference.prefix(head)))
        let rest = Array(captured.dropFirst(head))
        let resumedAt = r.reference.count - rest.count
        print("device back: resumed at frame \(resumedAt / Self.frameBytes) (unplugged at \(at))")
        // What was heard is worked out from the time since the device was last measured: the
        // error is how late the loss was noticed (a disconnect wakes the poll). Under a sanitizer
        // on a loaded machine that took a second.
        let slack = ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil ? Self.rate / 5 : Self.rate * 3 / 2
        #expect(
            abs(resumedAt / Self.frameBytes - at) <= slack,
            "resumed at frame \(resumedAt / Self.frameBytes), unplugged at \(at)\n\(r.output)\n\(log)")
        #expect(resumedAt >= 0 && rest == Array(r.reference.suffix(rest.count)), "after the device came back, the audio is not the rest of the file")
    }
}
