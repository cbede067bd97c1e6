#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetPluginABI

/// What starting a plugin (in process or in a process of its own) needs beside the request.
struct PluginStartContext {
    var isolation: PluginIsolationSettings
    var hostVersion: String
    var artworkCacheDirectory: String
    /// Where instances' state directories are made; nil: none.
    var stateDirectoryBase: String?
    /// Only checking (`commandLineProblems`): no state directory, no second process.
    var checkingOnly: Bool
    var log: @Sendable (String) -> Void

    /// The instance's state directory, made now; nil (said in one line) when it cannot be.
    func stateDirectory(for request: PluginRequest, file: String) -> String? {
        guard let base = stateDirectoryBase, !checkingOnly else { return nil }
        switch PluginStateDirectory.make(base: base, instanceName: request.instanceName) {
        case .success(let path): return path
        case .failure(let why):
            log("motet: plugin \(LogText.escaped(request.instanceName)) (\(LogText.escaped(file))): \(why.description); its state_dir is NULL")
            return nil
        }
    }
}

/// Starts an isolated plugin's process in two steps (docs/ISOLATION.md, "Sandbox"): the first
/// process loads the file under the strictest sandbox (writes only to its state directory and
/// the artwork cache), so that its constructors and entry function are confined too, and sends
/// the descriptor; once the options are checked, the writable directories are known (those of
/// its MOTET_OPTION_OUTPUT_PATH options), and a process sandboxed for them takes over when they
/// differ.
enum PluginProcessStart {
    typealias Started = (process: PluginProcess, launch: PluginProcess.Launch, descriptor: UnsafePointer<motet_plugin_descriptor>)

    /// Checks trust and the ELF header here (neither runs the plugin's code), then starts the
    /// first process and checks the descriptor it sends.
    static func first(_ file: String, _ request: PluginRequest, allowUnsafePermissions: Bool, context: PluginStartContext)
        -> Result<Started, PluginLoadFailure>
    {
        if access(file, F_OK) != 0 { return .failure(.noSuchFile(String(cString: strerror(errno)))) }
        if !allowUnsafePermissions, let distrust = PluginTrust.check(file) { return .failure(distrust) }
        if let problem = PluginLibrary.checkELF(file) { return .failure(problem) }
        guard let executable = context.isolation.hostExecutable else {
            return .failure(.isolationFailed(
                "cannot run it in a process of its own: motet-plugin-host is not installed beside motet"
                    + " (nor in ../libexec/motet); reinstall motet, or load it into motet's process with --plugin-isolation never"))
        }
        let state = context.stateDirectory(for: request, file: file)
        let launch = PluginProcess.Launch(
            executable: executable, file: file, instanceName: request.instanceName, hostVersion: context.hostVersion,
            artworkCacheDirectory: context.artworkCacheDirectory, memoryLimitBytes: context.isolation.memoryLimitBytes,
            stateDirectory: state,
            writable: context.isolation.sandbox ? strictest(state: state, context: context) : nil)
        return start(launch)
    }

    /// The process that runs the instance: the first one when it may stay, else a new one.
    static func final(
        _ first: (process: PluginProcess, launch: PluginProcess.Launch), _ request: PluginRequest, _ file: String,
        options: [PluginOption], described: [PluginOptionDescription]?, context: PluginStartContext
    ) -> Result<(process: PluginProcess, launch: PluginProcess.Launch), PluginLoadFailure> {
        guard let strict = first.launch.writable else { return .success(first) }
        let name = "motet: plugin \(LogText.escaped(request.instanceName)) (\(LogText.escaped(file)))"
        var launch = first.launch
        if let described {
            launch.writable = strict + outputDirectories(options: options, described: described)
        } else {
            context.log(name + " runs in a process of its own but not sandboxed: it describes no options (as ABI 1.0"
                + " plugins do), so motet cannot know where it writes (PLUGINS.md, \"Isolation and the sandbox\")")
            launch.writable = nil
        }
        if launch.writable == first.launch.writable { return .success(first) }
        first.process.end()
        switch start(launch) {
        case .success(let started): return .success((started.process, started.launch))
        case .failure(let failure): return .failure(failure)
        }
    }

    /// Starts a process for `launch` and checks its descriptor; says once when its sandbox could
    /// not confine writes.
    private static func start(_ launch: PluginProcess.Launch) -> Result<Started, PluginLoadFailure> {
        switch PluginProcess.start(launch) {
        case .failure(let failure): return .failure(failure)
        case .success(let started):
            if let problem = PluginDescriptorCheck.problem(started.descriptor, isolated: true) {
                started.process.end()
                return .failure(problem)
            }
            return .success((started.process, launch, started.descriptor))
        }
    }

    /// Where every sandboxed plugin may write: its state directory, the artwork cache, /dev/null.
    private static func strictest(state: String?, context: PluginStartContext) -> [String] {
        [state, context.artworkCacheDirectory, "/dev/null"].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// The directories of the MOTET_OPTION_OUTPUT_PATH options, given or by default (made if
    /// missing, as the plugin would make them: Landlock can only allow what exists). A default that
    /// starts with `~/` or `$NAME/` is expanded as a plugin would (`$XDG_RUNTIME_DIR/motet/x.json`).
    static func outputDirectories(options: [PluginOption], described: [PluginOptionDescription]) -> [String] {
        var directories: [String] = []
        for description in described where description.kind == .outputPath {
            let given = options.last { $0.key == description.name }?.value
            guard var path = given ?? description.defaultValue, !path.isEmpty else { continue }
            if path.hasPrefix("~/"), let home = PluginOptionCheck.home { path = home + path.dropFirst() }
            if path.hasPrefix("$"), let slash = path.firstIndex(of: "/"),
                let value = getenv(String(path[path.index(after: path.startIndex)..<slash])).map({ String(cString: $0) }),
                value.hasPrefix("/")
            {
                path = value + path[slash...]
            }
            guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { continue }
            let directory = slash == path.startIndex ? "/" : String(path[..<slash])
            _ = PluginStateDirectory.makeDirectories(directory)
            if !directories.contains(directory) { directories.append(directory) }
        }
        return directories
    }
}
