#if canImport(Glibc)
import Glibc
#endif
import CPluginWire
import MotetEvents
import MotetPluginABI
import Synchronization
import MotetSystem

/// A plugin instance that runs in a process of its own (`motet-plugin-host`), supervised: the
/// player's side keeps the instance's queue (the same `PluginEventQueue` and rules as in process)
/// and sends events ahead within an `EventWindow`; the process answers each when `on_event`
/// returned. A process that dies, breaks the framing or keeps one event
/// `EventWindow.watchdog` is reported in one line
/// naming the plugin, its file and what happened, and started again after a back-off; the new
/// instance is told the current track and state first. After `PluginSupervision.failureLimit`
/// failures in `PluginSupervision.window` the plugin is disabled for the run (docs/ISOLATION.md).
///
/// Threads: the instance's own thread delivers events and supervises; one reader thread per
/// process takes its frames (log lines, commands, answers). Neither is the audio thread, and
/// neither holds `lock` while it waits on the process.
final class IsolatedPluginInstance: PluginEndpoint, @unchecked Sendable {
    // Unchecked: the mutable state is guarded by `lock`, or touched only by the instance's thread.
    let name: String
    let file: String
    let abiMinor: UInt32
    private let launch: PluginProcess.Launch
    private let table: PluginHostTable
    private let log: @Sendable (String) -> Void

    private let lock = ConditionLock()
    // Guarded by `lock`:
    private var queue = PluginEventQueue()
    private var process: PluginProcess
    /// The current process's answers: create's status, destroy returned.
    private var createStatus: Int32?
    private var done = false
    /// Why the current process failed (set by its reader or the watchdog); nil while it is well.
    private var failure: String?
    private var onFailure: (@Sendable (PluginLoadFailure) -> Void)?
    /// Events sent to the current process and not yet taken.
    private var window = EventWindow()
    private var running = false
    private var stopping = false
    private var finished = false
    private var disabled = false
    /// The host gave up on it at exit (and said so): nothing more is said or restarted.
    private var abandoned = false
    // Only the instance's thread:
    private var supervision = PluginSupervision()
    private var delivered = DeliveredState()
    private var reportedFallingBehind = false
    /// Events taken by all its processes so far (read at exit).
    private let takenInAll = Atomic<Int>(0)

    init(
        name: String, file: String, process: PluginProcess, abiMinor: UInt32, launch: PluginProcess.Launch,
        configuration: PluginHost.Configuration
    ) {
        self.name = name
        self.file = file
        self.process = process
        self.abiMinor = abiMinor
        self.launch = launch
        self.table = PluginHostTable(instanceName: name, pluginMinor: abiMinor, configuration: configuration)
        self.log = configuration.log
    }

    // MARK: PluginEndpoint

    func start(options: [PluginOption], failed: @escaping @Sendable (PluginLoadFailure) -> Void) -> Bool {
        lock.withLock { onFailure = failed }
        return DetachedThread.start { [self] in run(options) }
    }

    func waitUntilCreated(deadline: MonotonicInstant) -> Bool {
        lock.withLock {
            while !running && !finished {
                if !lock.wait(until: deadline) { break }
            }
            return running
        }
    }

    func enqueue(_ event: PlayerEvent) {
        lock.withLock {
            guard !stopping, !disabled, !finished, abiMinor >= 1 || !event.isNewInABI1_1 else { return }
            queue.push(.player(event))
            lock.broadcast()
        }
    }

    func requestStop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    func waitUntilFinished(deadline: MonotonicInstant) -> Bool {
        lock.withLock {
            while !finished {
                if !lock.wait(until: deadline) { return finished }
            }
            return true
        }
    }

    var undeliveredTracks: Int {
        lock.withLock { queue.undeliveredTracks + window.tracks.count }
    }

    var eventsTaken: Int { takenInAll.load(ordering: .relaxed) }

    func abandon() {
        let current = lock.withLock {
            abandoned = true
            disabled = true
            lock.broadcast()
            return process
        }
        current.end()
    }

    // MARK: The instance's thread

    private func run(_ options: [PluginOption]) {
        guard create(options, first: true) else { return }
        while true {
            switch next() {
            case .event(let event): send(event)
            case .failed(let why): supervise(why, options: options)
            case .end: return stop(options)
            }
        }
    }

    /// Starts the reader of the current process, sends create and waits for its answer. The
    /// first time, a failure is reported as the instance's failed start; later, as a failure to
    /// supervise.
    private func create(_ options: [PluginOption], first: Bool) -> Bool {
        let current = lock.withLock { process }
        guard DetachedThread.start(name: "motet-plugin-io", { [self] in read(current) }) else {
            current.end()
            return first ? failStart(.threadFailed) : false
        }
        current.send(MOTET_WIRE_CREATE) { buffer in
            motet_wire_put_u32(buffer, UInt32(options.count))
            for option in options {
                motet_wire_put_string(buffer, option.key)
                motet_wire_put_string(buffer, option.value)
            }
        }
        let (status, why): (Int32?, String?) = lock.withLock {
            while createStatus == nil && failure == nil { lock.wait() }
            return (createStatus, failure)
        }
        if status == MOTET_OK {
            lock.withLock {
                running = true
                // Only the first create can fail a start: what the handler holds is let go now.
                onFailure = nil
                lock.broadcast()
            }
            return true
        }
        guard first else { return false }
        current.end()
        if let status { return failStart(.createFailed(status)) }
        return failStart(.isolationFailed("its process \(why ?? "ended") in create; it is not used"
            + " (report it to the plugin's author, or remove it from the configuration)"))
    }

    private func failStart(_ failure: PluginLoadFailure) -> Bool {
        lock.withLock {
            queue = PluginEventQueue()
            finished = true
            let report = onFailure
            onFailure = nil
            report?(failure)
            lock.broadcast()
        }
        return false
    }

    /// What the instance's thread does next.
    private enum Next {
        case event(QueuedEvent)
        /// The process failed while no event was on its way (a crash on its own thread).
        case failed(String)
        /// Stopping, and everything queued was delivered (or the plugin is disabled).
        case end
    }

    /// The next event to send, waiting for one (and for room in the window), or a failure of the
    /// process meanwhile; the watchdog fails a process whose oldest event waits too long.
    private func next() -> Next {
        while true {
            let (event, droppedOthers, why): (QueuedEvent?, Int, String?) = lock.withLock {
                while true {
                    settle()
                    if let failure, !disabled { return (nil, 0, failure) }
                    if !queue.isEmpty && !window.isFull { break }
                    if stopping && queue.isEmpty { break }
                    guard let deadline = window.watchdogDeadline, !disabled else {
                        lock.wait()
                        continue
                    }
                    if MonotonicInstant.now() >= deadline {
                        failure = EventWindow.stuck
                        continue
                    }
                    _ = lock.wait(until: deadline)
                }
                return (queue.pop(), queue.takeDroppedOthers(), nil)
            }
            if let why { return .failed(why) }
            if droppedOthers > 0 { reportFallingBehind("\(droppedOthers) other event\(droppedOthers == 1 ? "" : "s")") }
            guard let event else { return .end }
            guard case .tracksLost(let count) = event else { return .event(event) }
            reportFallingBehind("the events of \(count) track\(count == 1 ? "" : "s")")
            if abiMinor >= 1 { return .event(event) }
        }
    }

    /// What the process took is delivered: noted for a replay. Call with `lock` held (only the
    /// instance's thread does).
    private func settle() {
        for event in window.settle() { delivered.note(event) }
    }

    private func reportFallingBehind(_ what: String) {
        guard !reportedFallingBehind else { return }
        reportedFallingBehind = true
        log("motet: plugin \(LogText.escaped(name)) is not keeping up: dropped \(what) (at most \(MOTET_QUEUE_TRACKS) tracks wait; further drops are not logged)")
    }

    /// Sends `event` without waiting for it to be taken (the window bounds how many are on their
    /// way); a process that fails meanwhile is noticed by `next`.
    private func send(_ event: QueuedEvent) {
        let sent: (PluginProcess, UInt64)? = lock.withLock {
            disabled ? nil : (process, window.send(event, at: .now()))
        }
        guard let (current, number) = sent else { return }
        current.send(event, sequence: number)
    }

    /// Sends one event and waits for it to be taken (then it is delivered); the failure, if any.
    /// (A restarted process's replay goes one event at a time.)
    private func handOver(_ event: QueuedEvent) -> String? {
        let (current, number) = lock.withLock { (process, window.send(event, at: .now())) }
        current.send(event, sequence: number)
        let why: String? = lock.withLock {
            while !window.hasTaken(number), failure == nil, let deadline = window.watchdogDeadline, MonotonicInstant.now() < deadline {
                _ = lock.wait(until: deadline)
            }
            settle()
            if window.hasTaken(number) { return nil }
            if failure == nil { failure = EventWindow.stuck }
            return failure
        }
        if why != nil { current.end() }
        return why
    }

    /// Reports the failure and restarts the process after its back-off, or disables the plugin.
    private func supervise(_ why: String, options: [PluginOption]) {
        var why = why
        // What was on its way when the process failed goes to the next one after the replay (a
        // scrobbler must not lose a track's finish because its process died meanwhile).
        let (failed, resend) = lock.withLock { () -> (PluginProcess, [QueuedEvent]) in
            settle()
            return (process, window.takeBack())
        }
        failed.end()
        while true {
            let what = "motet: plugin \(LogText.escaped(name)) (\(LogText.escaped(file))): its process \(why)"
            if let lost = lock.withLock({ () -> Int? in
                guard stopping || abandoned else { return nil }
                defer {
                    disabled = true
                    queue = PluginEventQueue()
                }
                return queue.undeliveredTracks + Set(resend.compactMap { $0.kind.track }).count
            }) {
                // Quitting: no restart; what it did not get is said (unless the host said it).
                if !lock.withLock({ abandoned }) { log(what + (lost > 0 ? "; the events of \(lost) track\(lost == 1 ? "" : "s") were not delivered" : "")) }
                return
            }
            switch supervision.failed(at: .now()) {
            case .disable:
                log(what + "; it failed \(PluginSupervision.failureLimit) times in \(Int(PluginSupervision.window / .seconds(60))) minutes,"
                    + " so it is disabled for the rest of this run (report it to the plugin's author)")
                lock.withLock {
                    disabled = true
                    queue = PluginEventQueue()
                }
                return
            case .restart(let wait, let failures):
                log(what + "; restarting it in \(wait.secondsText) s (failure \(failures) of \(PluginSupervision.failureLimit)"
                    + " allowed in \(Int(PluginSupervision.window / .seconds(60))) minutes)")
                let deadline = MonotonicInstant.now() + wait
                if lock.withLock({ () -> Bool in
                    while !stopping { if !lock.wait(until: deadline) { break } }
                    return stopping
                }) { return }
            }
            switch PluginProcess.start(launch) {
            case .failure(let failure):
                why = "could not be started again: \(failure.reason)"
                continue
            case .success(let (restarted, _, _)):
                lock.withLock {
                    process = restarted
                    createStatus = nil
                    window = EventWindow()
                    done = false
                    failure = nil
                }
            }
            guard create(options, first: false) else {
                why = lock.withLock { failure } ?? "failed in create"
                continue
            }
            // The new instance hears the current track and state first, then the event that was on
            // its way (which may fail again: then it counts as another failure).
            var failedAgain: String?
            for event in delivered.replay(abiMinor: abiMinor) + resend {
                if let failed = handOver(event) {
                    failedAgain = failed
                    break
                }
            }
            guard let failedAgain else { return }
            why = failedAgain
        }
    }

    /// Sends STOP after what is on its way (the process delivers those, then the shutdown event
    /// and destroy), waits for DONE, and reaps the process; a failure meanwhile is said.
    private func stop(_ options: [PluginOption]) {
        let (current, ok) = lock.withLock { (process, failure == nil && !disabled) }
        if ok {
            current.send(MOTET_WIRE_STOP)
            let why: String? = lock.withLock {
                while !done && failure == nil { lock.wait() }
                return done ? nil : failure
            }
            if let why { supervise(why, options: options) } else { current.reap() }
        } else {
            current.end()
        }
        lock.withLock {
            finished = true
            lock.broadcast()
        }
    }

    // MARK: A process's reader thread

    /// Takes every frame of `current` until it ends; then records why (unless it said DONE).
    private func read(_ current: PluginProcess) {
        var why: String?
        reading: while true {
            switch current.readFrame() {
            case .frame(let kind, let payload):
                if let problem = handle(kind, payload, from: current) {
                    why = problem
                    break reading
                }
            case .closed:
                break reading
            case .malformed, .timedOut:
                why = "broke the framing of its connection"
                break reading
            }
        }
        let saidDone = lock.withLock { done }
        if saidDone { return }
        // Give a process that is ending by itself a moment, so that its own death is what is said.
        let status = current.endAfterGrace()
        lock.withLock {
            guard process === current, failure == nil else { return }
            failure = why ?? (current.diedOfMemoryLimit
                ? "reached its memory limit of \(launch.memoryLimitBytes / 1_048_576) MiB (--plugin-memory-limit) and "
                    + ChildProcess.describe(status: status) : ChildProcess.describe(status: status))
            lock.broadcast()
        }
    }

    /// One frame from the process; the problem when it breaks the rules.
    private func handle(_ kind: UInt32, _ payload: [UInt8], from current: PluginProcess) -> String? {
        payload.withUnsafeBufferPointer { bytes -> String? in
            var r = motet_wire_reader()
            motet_wire_reader_init(&r, bytes.baseAddress, bytes.count)
            switch kind {
            case MOTET_WIRE_LOG:
                let level = motet_wire_get_u32(&r)
                let message = motet_wire_get_string(&r)
                guard motet_wire_reader_finish(&r) == MOTET_WIRE_OK else { return "sent a malformed log line" }
                table.write(level, LogText.fromPlugin(message))
            case MOTET_WIRE_COMMAND:
                let request = motet_wire_get_u64(&r)
                let command = motet_wire_get_u32(&r)
                let track = motet_wire_get_u64(&r)
                let argument = Int64(bitPattern: motet_wire_get_u64(&r))
                let string = motet_wire_get_string(&r).map { String(cString: $0) }
                guard motet_wire_reader_finish(&r) == MOTET_WIRE_OK else { return "sent a malformed command" }
                // Applied only now that the whole frame arrived: a dying process half-applies nothing.
                let answer = table.send(command, track: track, argument, string: string)
                current.send(MOTET_WIRE_ANSWER) { buffer in
                    motet_wire_put_u64(buffer, request)
                    motet_wire_put_u32(buffer, UInt32(bitPattern: answer))
                }
            case MOTET_WIRE_CREATED:
                let status = Int32(bitPattern: motet_wire_get_u32(&r))
                guard motet_wire_reader_finish(&r) == MOTET_WIRE_OK else { return "sent a malformed answer to create" }
                lock.withLock {
                    if process === current { createStatus = status }
                    lock.broadcast()
                }
            case MOTET_WIRE_TAKEN:
                let number = motet_wire_get_u64(&r)
                guard motet_wire_reader_finish(&r) == MOTET_WIRE_OK else { return "sent a malformed answer to an event" }
                lock.withLock {
                    if process === current { takenInAll.add(window.took(upTo: number), ordering: .relaxed) }
                    lock.broadcast()
                }
            case MOTET_WIRE_DONE:
                lock.withLock {
                    if process === current { done = true }
                    lock.broadcast()
                }
            default:
                return "sent a frame of unknown kind \(kind)"
            }
            return nil
        }
    }
}
