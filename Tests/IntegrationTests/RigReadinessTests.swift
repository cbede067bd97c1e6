import Foundation
import Glibc
import MotetTestSupport
import Testing

/// The test rigs wait for a server that answers, not for its socket file: a server killed with
/// SIGKILL leaves the file behind, and a slow start makes the file before it serves (issue 26:
/// `make test` failed on a correct tree when pipewire-pulse started before the new PipeWire).
@Suite struct RigReadinessTests {
    @Test func aSocketFileThatNothingListensOnIsNotAServer() throws {
        let directory = try Paths.temporaryDirectory("motet-readiness")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/server-0"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(!Readiness.unixSocketAccepts(path), "bound but not listening: nothing answers")
        listen(fd, 1)
        #expect(Readiness.unixSocketAccepts(path), "listening: a connection is accepted")
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path), "a closed server leaves its socket file")
        #expect(!Readiness.unixSocketAccepts(path), "its socket file is not a server")
    }

    @Test func aServerThatExitsFailsTheWaitAtOnceWithItsName() throws {
        let process = try SpawnedProcess(["sh", "-c", "exit 3"])
        let started = Stopwatch()
        let error = try #require(throws: TestError.self) {
            try Readiness.wait(for: "quitter", answering: "nothing", timeout: 20, process: process) { false }
        }
        #expect(started.seconds < 5)
        #expect(error.description.hasPrefix("quitter exited before it answered (status 3) (waited for nothing)"))
    }

    /// After a SIGKILL the dead pipewire's `pipewire-0` is still there; a pipewire that is slow to
    /// start must still be waited for before WirePlumber and pipewire-pulse, and the first restart
    /// must bring the whole server back.
    @Test func pipeWireRestartsAfterSIGKILLWhenTheNewServerIsSlowToStart() throws {
        let pipewire = try PipeWireRig()
        defer { pipewire.stop() }
        pipewire.kill()
        #expect(FileManager.default.fileExists(atPath: pipewire.runtimePath + "/pipewire-0"), "the stale socket is there")
        try pipewire.restart(pipewireDelay: 2)
        #expect(pipewire.serverPIDs.count == 3, "\(pipewire.logTail())")
        let sinks = try pipewire.pactl(["list", "short", "sinks"])
        #expect(sinks.status == 0 && sinks.stdout.contains(PipeWireRig.sinkName), "\(sinks.stderr)")
        #expect(try pipewire.pwDump().contains("\"\(PipeWireRig.sinkName)\""), "pw-dump answers and lists the pipe sink")
    }

    @Test func pulseAudioRestartsAfterSIGKILLTheFirstTime() throws {
        let pulse = try PulseRig()
        defer { pulse.stop() }
        pulse.kill()
        #expect(FileManager.default.fileExists(atPath: pulse.runtimePath + "/native"), "the stale socket is there")
        try pulse.restart()
        let sinks = try pulse.pactl(["list", "short", "sinks"])
        #expect(sinks.status == 0 && sinks.stdout.contains(PulseRig.sinkName), "\(sinks.stderr)")
    }
}

/// The terminal rig reads the status line, not whatever row holds the cursor: the player writes
/// "Playing: title — artist — album" above the status line, and until that line's line feed
/// arrives the cursor is on it (issue 26: a keyboard test took it for the status line, then read
/// the empty row below as the status line).
@Suite struct TerminalRigTests {
    @Test func aLineAboveTheStatusLineIsNotTheStatusLine() throws {
        let term = try PlayerTerminal(command: ["sh", "-c", "printf 'Playing: Long — Band'; sleep 2; printf '\\n▶ 0:00 Long — Band'; sleep 30"], environment: [:])
        defer { term.close() }
        #expect(try term.waitFor("Playing: Long — Band"), "\(term.screen())")
        #expect(term.cursor().row == "Playing: Long — Band", "\(term.screen())")
        #expect(term.statusLine() == "", "\(term.screen())")
        #expect(try Shell.waitUntil(timeout: 5) { term.statusLine() == "▶ 0:00 Long — Band" }, "\(term.screen())")
    }
}
