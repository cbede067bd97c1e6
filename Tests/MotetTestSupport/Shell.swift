import Foundation

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]
}

public enum TestError: Error, CustomStringConvertible {
    case failed(String)
    public var description: String {
        switch self {
        case .failed(let s): s
        }
    }
}

/// Runs programs for tests: real tools (sox, oggenc, pactl, dunstctl, playerctl) and the motet binary.
public enum Shell {
    /// Runs `argv` to completion and captures its output. `stdin` is /dev/null unless given.
    @discardableResult
    public static func run(
        _ argv: [String], environment: [String: String] = [:], stdin: String? = nil,
        currentDirectory: String? = nil, timeout: Double = 120
    ) throws -> ProcessResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let currentDirectory { p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let input = Pipe()
        p.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try p.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a chatty child cannot fill one and block, and wait for
        // both with the timeout: a child that hangs with its output open (a hung player) fails
        // the test after `timeout` instead of blocking the whole run.
        let box = OutputBox()
        let outBox = OutputBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            box.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            outBox.set(out.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            if group.wait(timeout: .now() + 2) == .timedOut { kill(p.processIdentifier, SIGKILL) }
            throw TestError.failed("\(argv.joined(separator: " ")) did not finish within \(timeout) s")
        }
        p.waitUntilExit()
        let outData = outBox.value
        return ProcessResult(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: box.value, as: UTF8.self), stdoutBytes: [UInt8](outData))
    }

    /// Runs `argv` and throws with its stderr unless it exits 0.
    @discardableResult
    public static func check(_ argv: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let r = try run(argv, environment: environment)
        guard r.status == 0 else {
            throw TestError.failed("\(argv.joined(separator: " ")) exited \(r.status): \(r.stderr)")
        }
        return r
    }

    /// Starts a long-running program and returns it; the caller terminates it.
    /// Prefer `SpawnedProcess`: a child started here inherits the pipes of any `Shell.run` running
    /// at the same moment in a parallel test, and that `run` then waits for this child to end.
    public static func start(
        _ argv: [String], environment: [String: String] = [:], stdout: String? = nil, stderr: String? = nil
    ) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = argv
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = try stdout.map(Self.handle) ?? FileHandle.nullDevice
        p.standardError = try stderr.map(Self.handle) ?? FileHandle.nullDevice
        try p.run()
        return p
    }

    private static func handle(_ path: String) throws -> FileHandle {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Polls `condition` every `interval` seconds (50 ms unless a test must catch a brief state)
    /// until it holds or `timeout` seconds pass; returns whether it held. The one polling loop of
    /// the tests: a rig waiting for its server goes through `Readiness.wait`, which uses it.
    public static func waitUntil(
        timeout: Double = 10, interval: Double = 0.05, _ condition: () throws -> Bool
    ) throws -> Bool {
        let clock = Stopwatch()
        while clock.seconds < timeout {
            if try condition() { return true }
            usleep(useconds_t(interval * 1_000_000))
        }
        return try condition()
    }
}

/// What one reader thread read from a pipe.
private final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.withLock { data = d } }
    var value: Data { lock.withLock { data } }
}
