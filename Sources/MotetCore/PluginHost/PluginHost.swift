#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetPluginABI
import Synchronization
import MotetSystem

/// Loads delegate plugins and hands them the player's events, each instance on its own serial
/// queue, so that a slow plugin delays only itself. See docs/ARCHITECTURE.md, "The two contracts".
public final class PluginHost: Sendable {
    /// What the host needs from the player.
    public struct Configuration: Sendable {
        /// The player's version, given to plugins as `host_version`.
        public var hostVersion: String
        /// Given to plugins as `artwork_cache_dir`.
        public var artworkCacheDirectory: String
        /// False (`remote-commands = no`): every command is answered refused and not acted on.
        /// This is the one place the setting is enforced: each instance's host table answers
        /// `MOTET_COMMAND_REFUSED` at the C boundary, so `commands` never sees such a command.
        public var remoteCommands: Bool
        /// Receives one finished line (prefixed, control characters escaped); the player prints
        /// it. Called from any thread.
        public var log: @Sendable (String) -> Void
        /// The player's command intake: thread-safe, only enqueues. Called on the plugin's
        /// thread with the track the command names (0: whatever is current; see
        /// `Player.send(_:track:from:)`) and the instance name.
        public var commands: @Sendable (PlayerCommand, _ track: UInt64, _ instanceName: String) -> CommandAnswer
        /// Whether plugins' `MOTET_LOG_DEBUG` lines reach `log`.
        public var showsPluginDebugMessages: Bool
        /// Which plugins run in a process of their own (`--plugin-isolation`); none by default.
        public var isolation: PluginIsolationSettings
        /// Where each instance's state directory is made (`…/motet/plugins`, under
        /// `$XDG_STATE_HOME`); nil: plugins get none (`state_dir` is NULL).
        public var stateDirectoryBase: String?

        public init(
            hostVersion: String, artworkCacheDirectory: String, remoteCommands: Bool = true,
            log: @escaping @Sendable (String) -> Void,
            commands: @escaping @Sendable (PlayerCommand, _ track: UInt64, _ instanceName: String) -> CommandAnswer,
            showsPluginDebugMessages: Bool = false, isolation: PluginIsolationSettings = .none,
            stateDirectoryBase: String? = nil
        ) {
            self.isolation = isolation
            self.stateDirectoryBase = stateDirectoryBase
            self.hostVersion = hostVersion
            self.artworkCacheDirectory = artworkCacheDirectory
            self.remoteCommands = remoteCommands
            self.log = log
            self.commands = commands
            self.showsPluginDebugMessages = showsPluginDebugMessages
        }
    }

    private let configuration: Configuration
    private let instances = Locked<[any PluginEndpoint]>([])
    private let isShutDown = Atomic<Bool>(false)

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// How long the player waits at most at exit for all plugins (`MOTET_SHUTDOWN_WAIT_MS`).
    public static let shutdownWait: Duration = .milliseconds(MOTET_SHUTDOWN_WAIT_MS)
    /// At exit, an instance that takes no event for this long is given up on (`MOTET_SHUTDOWN_STALL_MS`).
    public static let shutdownStall: Duration = .milliseconds(MOTET_SHUTDOWN_STALL_MS)

    /// The names of the running instances, in load order.
    public var instanceNames: [String] { instances.withLock { $0.map(\.name) } }

    /// Loads each request in order. Each failure is one log line naming the plugin, the file and
    /// the reason (not found with the directories searched, not a shared object, unresolved
    /// symbol, no entry function, ABI mismatch with both versions, declined, create failed,
    /// unsafe permissions with how to fix them); the others load regardless.
    ///
    /// `create` runs on each instance's own thread and is not waited for: a slow create delays
    /// only its plugin, whose events queue meanwhile. A create that fails is reported (the same
    /// one line) when it returns, and the instance is dropped. Returns how many instances were
    /// started; `waitForCreates` tells how many of them are running.
    ///
    /// With `allowUnsafePermissions` (`--allow-unsafe-plugins`) files writable by others or owned
    /// by another user are loaded too.
    @discardableResult
    public func load(_ requests: [PluginRequest], searchPath: PluginSearchPath, allowUnsafePermissions: Bool = false) -> Int {
        for request in requests {
            switch start(request, searchPath: searchPath, allowUnsafePermissions: allowUnsafePermissions) {
            case .success:
                break
            case .failure(let failure):
                configuration.log(Self.message(request, failure.file, failure.failure, origin: failure.origin))
            }
        }
        return instances.withLock { $0.count }
    }

    /// Waits until every instance's `create` has returned (at most `timeout` in total) and
    /// returns how many instances are running. The player never calls this; tests and tools do.
    @discardableResult
    public func waitForCreates(timeout: Duration) -> Int {
        let deadline = MonotonicInstant.now() + max(.zero, timeout)
        for instance in instances.withLock({ $0 }) { _ = instance.waitUntilCreated(deadline: deadline) }
        return instances.withLock { $0.count }
    }

    /// Queues `event` for every instance and returns at once; never waits for a plugin.
    /// Safe from any thread, but by contract never called from the audio thread (it allocates).
    public func publish(_ event: PlayerEvent) {
        guard !isShutDown.load(ordering: .acquiring) else { return }
        for instance in instances.withLock({ $0 }) {
            instance.enqueue(event)
        }
    }

    /// Delivers what is queued, then `MOTET_EVENT_SHUTDOWN`, then calls destroy, for every
    /// instance at once, for as long as each keeps taking events: an instance that takes none for
    /// `stall` is given up on, and any that is not done after `timeout` in all (the player gives
    /// `shutdownStall` and `shutdownWait`, the header's
    /// `MOTET_SHUTDOWN_STALL_MS` and `MOTET_SHUTDOWN_WAIT_MS`). Returns the instance names it gave
    /// up on, each also logged in one line that says why and how many tracks' events it did not get.
    public func shutdown(timeout: Duration, stall: Duration = PluginHost.shutdownStall) -> [String] {
        guard !isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return [] }
        let all = instances.withLock { list in
            defer { list = [] }
            return list
        }
        for instance in all { instance.requestStop() }
        let start = MonotonicInstant.now()
        let deadline = start + max(.zero, timeout)
        // Each instance's progress: the events it took, and when that count last moved.
        var progress = all.map { (taken: $0.eventsTaken, at: start) }
        var waiting = Array(all.indices)
        var gaveUp: [String] = []
        while !waiting.isEmpty {
            let now = MonotonicInstant.now()
            waiting.removeAll { index in
                let instance = all[index]
                if instance.waitUntilFinished(deadline: now) { return true }
                let taken = instance.eventsTaken
                if taken != progress[index].taken { progress[index] = (taken, now) }
                let why: String
                if now - progress[index].at >= stall {
                    why = "it took no event for \(stall.secondsText) s"
                } else if now >= deadline {
                    why = "it was not done after \(timeout.secondsText) s"
                } else {
                    return false
                }
                let lost = instance.undeliveredTracks
                gaveUp.append(instance.name)
                instance.abandon()
                configuration.log(
                    "motet: gave up waiting for plugin \(LogText.escaped(instance.name)) (\(LogText.escaped(instance.file))) at exit: "
                        + why + (lost > 0 ? "; it did not get the events of \(lost) track\(lost == 1 ? "" : "s")" : "; every track's events had reached it"))
                return true
            }
            if !waiting.isEmpty {
                // A short poll, only while quitting.
                _ = all[waiting[0]].waitUntilFinished(deadline: .now() + .milliseconds(20))
            }
        }
        return gaveUp
    }

    // MARK: Loading one request

    private struct FailedStart: Error {
        var file: String?
        var failure: PluginLoadFailure
        /// Where the refused option was written, when that is more precise than the request's
        /// origin (a key's own line in a config section).
        var origin: String? = nil
    }

    /// What can be known about a request without creating an instance: its file, its descriptor
    /// and its checked options; for an isolated plugin, its process (which loaded the file) too.
    private struct Prepared {
        var file: String
        var descriptor: UnsafePointer<motet_plugin_descriptor>
        var options: [PluginOption]
        var isolated: (process: PluginProcess, launch: PluginProcess.Launch)?
    }

    private static func prepare(
        _ request: PluginRequest, searchPath: PluginSearchPath, allowUnsafePermissions: Bool, context: PluginStartContext
    ) -> Result<Prepared, FailedStart> {
        let file: String
        switch resolve(request.name, in: searchPath) {
        case .success(let found): file = found
        case .failure(let failure): return .failure(FailedStart(file: nil, failure: failure))
        }
        let descriptor: UnsafePointer<motet_plugin_descriptor>
        var isolated: (process: PluginProcess, launch: PluginProcess.Launch)?
        if context.isolation.isolates(file) {
            switch PluginProcessStart.first(file, request, allowUnsafePermissions: allowUnsafePermissions, context: context) {
            case .success(let started):
                descriptor = started.descriptor
                isolated = (started.process, started.launch)
            case .failure(let failure): return .failure(FailedStart(file: file, failure: failure))
            }
        } else {
            switch openDescriptor(file, allowUnsafePermissions: allowUnsafePermissions) {
            case .success(let d): descriptor = d
            case .failure(let failure): return .failure(FailedStart(file: file, failure: failure))
            }
        }
        var options = request.options
        let described = PluginOptionCheck.descriptions(descriptor)
        if let described {
            switch PluginOptionCheck.checked(options, against: described, home: PluginOptionCheck.home) {
            case .success(let checked): options = checked
            case .failure(let refusal):
                isolated?.process.end()
                return .failure(FailedStart(file: file, failure: refusal.failure, origin: refusal.option.origin))
            }
        }
        if let first = isolated, !context.checkingOnly {
            switch PluginProcessStart.final(first, request, file, options: options, described: described, context: context) {
            case .success(let final): isolated = final
            case .failure(let failure): return .failure(FailedStart(file: file, failure: failure))
            }
        }
        return .success(Prepared(file: file, descriptor: descriptor, options: options, isolated: isolated))
    }

    /// The requests the user gave on the command line (``PluginRequest/fromCommandLine``) that
    /// cannot start: not found, not loadable, refused, or with options their descriptor rejects;
    /// one line each, in the form `load` logs. The player checks them before it plays anything
    /// and stops with exit status 64 when there is one. (A failing `create` is only known later:
    /// it is reported and the instance skipped, whatever its origin.) Loads the files it checks,
    /// as `load` then does again; creates nothing.
    public static func commandLineProblems(
        _ requests: [PluginRequest], searchPath: PluginSearchPath, allowUnsafePermissions: Bool,
        isolation: PluginIsolationSettings = .none
    ) -> [String] {
        let context = PluginStartContext(
            isolation: isolation, hostVersion: "", artworkCacheDirectory: "", stateDirectoryBase: nil, checkingOnly: true,
            log: { _ in })
        return requests.filter(\.fromCommandLine).compactMap { request in
            switch prepare(request, searchPath: searchPath, allowUnsafePermissions: allowUnsafePermissions, context: context) {
            case .success(let prepared):
                prepared.isolated?.process.end()
                return nil
            case .failure(let failed): return message(request, failed.file, failed.failure, origin: failed.origin)
            }
        }
    }

    private func start(_ request: PluginRequest, searchPath: PluginSearchPath, allowUnsafePermissions: Bool)
        -> Result<any PluginEndpoint, FailedStart>
    {
        var request = request
        if let value = request.deprecatedFileKey {
            request = Self.resolveDeprecatedFileKey(
                request, value, searchPath: searchPath, allowUnsafePermissions: allowUnsafePermissions,
                log: configuration.log)
        }
        let prepared: Prepared
        let context = PluginStartContext(
            isolation: configuration.isolation, hostVersion: configuration.hostVersion,
            artworkCacheDirectory: configuration.artworkCacheDirectory, stateDirectoryBase: configuration.stateDirectoryBase,
            checkingOnly: false, log: configuration.log)
        switch Self.prepare(request, searchPath: searchPath, allowUnsafePermissions: allowUnsafePermissions, context: context) {
        case .success(let p): prepared = p
        case .failure(let failed): return .failure(failed)
        }
        let (file, descriptor, options) = (prepared.file, prepared.descriptor, prepared.options)
        let instance: any PluginEndpoint
        if let (process, launch) = prepared.isolated {
            instance = IsolatedPluginInstance(
                name: request.instanceName, file: file, process: process, abiMinor: descriptor.pointee.abi_minor,
                launch: launch, configuration: configuration)
        } else {
            instance = PluginInstance(
                name: request.instanceName, file: file, descriptor: descriptor, configuration: configuration,
                stateDirectory: context.stateDirectory(for: request, file: file))
        }
        // Listed before create runs, so that the events of the meantime queue for it.
        instances.withLock { $0.append(instance) }
        let (log, instances, id) = (configuration.log, self.instances, ObjectIdentifier(instance))
        // No weak references here: a weak reference gives its object a side table that, once the
        // reference is gone, only the object's header points to (encoded), which LeakSanitizer
        // reports as a leak while the object lives on (an instance parked after a crash, the
        // player's host). The instance drops this closure when create returns, so the strong
        // `instances` makes no lasting cycle; `id` is compared only while the instance lives.
        let started = instance.start(options: options) { [instances, request] failure in
            log(Self.message(request, file, failure))
            instances.withLock { list in list.removeAll { ObjectIdentifier($0) == id } }
        }
        guard started else {
            instances.withLock { list in list.removeAll { $0 === instance } }
            return .failure(FailedStart(file: file, failure: .threadFailed))
        }
        return .success(instance)
    }

    /// A config section's `file = VALUE` without `library =`: the plugin named like the section,
    /// handed `file=VALUE`, when it declares an option called `file`; otherwise VALUE is the
    /// plugin's file, as before ABI 1.1, and a warning says to write `library =`.
    static func resolveDeprecatedFileKey(
        _ request: PluginRequest, _ value: String, searchPath: PluginSearchPath, allowUnsafePermissions: Bool,
        log: @Sendable (String) -> Void
    ) -> PluginRequest {
        var request = request
        request.deprecatedFileKey = nil
        var section = Substring(request.instanceName)
        if let hash = section.lastIndex(of: "#"), section[section.index(after: hash)...].allSatisfy(\.isNumber) {
            section = section[..<hash]
        }
        if case .success(let named) = resolve(String(section), in: searchPath),
            case .success(let d) = openDescriptor(named, allowUnsafePermissions: allowUnsafePermissions),
            PluginOptionCheck.descriptions(d)?.contains(where: { $0.name == "file" }) == true
        {
            request.name = String(section)
            request.options.append(PluginOption(key: "file", value: value))
            return request
        }
        log("motet: plugin \(LogText.escaped(request.instanceName)): 'file =' (\(LogText.escaped(request.origin))) is deprecated;"
            + " write 'library = \(LogText.escaped(value))' (then a plugin option may be called file)")
        return request
    }

    /// The file for a name (first match in the search path) or a path (absolute, or relative to
    /// the current directory because the user typed it).
    static func resolve(_ nameOrPath: String, in searchPath: PluginSearchPath) -> Result<String, PluginLoadFailure> {
        if nameOrPath.contains("/") {
            let path = nameOrPath.hasPrefix("/") ? nameOrPath : PluginSearchPath.currentDirectory() + "/" + nameOrPath
            // `./ww/x.so` is shown as `CWD/ww/x.so`; `..` stays (lexically it may cross a link).
            return .success("/" + path.split(separator: "/").filter { $0 != "." }.joined(separator: "/"))
        }
        guard PluginName.isValid(nameOrPath) else { return .failure(.invalidName(nameOrPath)) }
        for entry in searchPath.entries {
            for fileName in PluginSearchPath.fileNames(for: nameOrPath, in: entry.source) {
                let candidate = entry.directory + "/" + fileName
                if access(candidate, F_OK) == 0 { return .success(candidate) }
            }
        }
        return .failure(
            .notFound(
                name: nameOrPath, fileNames: ["\(nameOrPath).so", "libmotet-\(nameOrPath).so"],
                directories: searchPath.directories, available: names(searchPath: searchPath)))
    }

    /// Checks trust, opens the file, calls its entry function and checks the descriptor.
    static func openDescriptor(_ file: String, allowUnsafePermissions: Bool)
        -> Result<UnsafePointer<motet_plugin_descriptor>, PluginLoadFailure>
    {
        if access(file, F_OK) != 0 {
            return .failure(.noSuchFile(String(cString: strerror(errno))))
        }
        if !allowUnsafePermissions, let distrust = PluginTrust.check(file) {
            return .failure(distrust)
        }
        let entry: motet_plugin_entry_fn
        switch PluginLibrary.open(file) {
        case .success(let e): entry = e
        case .failure(let failure): return .failure(failure)
        }
        guard let descriptor = entry(MOTET_ABI_MAJOR, MOTET_ABI_MINOR) else {
            return .failure(.declined(hostMajor: MOTET_ABI_MAJOR, hostMinor: MOTET_ABI_MINOR))
        }
        if let problem = PluginDescriptorCheck.problem(descriptor) { return .failure(problem) }
        return .success(descriptor)
    }

    /// One log line for a failed request: plugin, file, reason, and where it was asked for
    /// (`origin`, when given: where the refused option was written).
    static func message(_ request: PluginRequest, _ file: String?, _ failure: PluginLoadFailure, origin: String? = nil) -> String {
        var line = "motet: plugin \(LogText.escaped(request.instanceName)): "
        if let file { line += LogText.escaped(file) + ": " }
        line += LogText.escaped(failure.reason)
        line += " (from \(LogText.escaped(origin ?? request.origin)))"
        return line
    }
}
