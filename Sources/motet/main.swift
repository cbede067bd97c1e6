// motet: the program a person runs. Thin on purpose: parse, wire the parts together, play.
#if canImport(Glibc)
import Glibc
#endif
import MotetConfiguration
import MotetPlayback
import MotetEvents
import MotetNetwork
import MotetOutput
import MotetPluginABI
import MotetPluginHost
import MotetSystem
import MotetLikes

let motetVersion = "0.1.0"

// Signals are taken by one thread (sigwait), so block them before any thread starts.
SignalWatcher.blockHandledSignals()
signal(SIGPIPE, SIG_IGN)

let environment = ProcessEnvironment.current()

func fail(_ text: String, code: Int32) -> Never {
    Console.write(2, text + "\n")
    exit(code)
}

// Hidden, for the build and the shell: `--generate man|plugins-man PLUGIN.so…|bash|zsh|fish` prints
// a document generated from the option table or the plugins' descriptions (make install, make deb); `--complete-plugin-names`
// lists the names on the search path without loading any plugin, and `--complete-plugin-options
// NAME` a plugin's option keys from the cache `--list-plugins` writes, filling it for NAME when
// NAME is not in it yet (the completion scripts).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--generate" {
    guard arguments.count >= 2, let kind = GeneratedDocument(rawValue: arguments[1]) else {
        fail("motet: --generate takes one of: \(GeneratedDocument.allCases.map(\.rawValue).joined(separator: ", "))", code: 64)
    }
    var plugins: [PluginDocumentation] = []
    if kind == .pluginsMan {
        switch PluginHost.documentation(files: Array(arguments.dropFirst(2))) {
        case .success(let described): plugins = described
        case .failure(let error): fail(error.description, code: 1)
        }
    }
    Console.write(1, kind.render(version: motetVersion, plugins: plugins))
    exit(0)
}
// `--list-plugins` looks at each plugin file in a child: `--inspect-plugin NAME FILE yes|no`.
if arguments.first == PluginInspection.flag {
    exit(PluginInspection.runChild(Array(arguments.dropFirst())))
}
if arguments == [GeneratedDocument.pluginNamesFlag] {
    let searchPath = PluginSearchPath(pluginDirectories: [], environment: environment, executablePath: ProcessEnvironment.executablePath())
    for name in PluginHost.names(searchPath: searchPath) { Console.write(1, name + "\n") }
    exit(0)
}
if arguments.count == 2 && arguments[0] == PluginOptionCache.flag {
    let name = arguments[1]
    let cache = PluginOptionCache.path(XDGDirectories(environment: environment))
    var options = PluginOptionCache.options(of: name, in: cache)
    // Not cached yet: look at that plugin alone, in a child (as --list-plugins does), and keep
    // what it describes for the next TAB.
    if options.isEmpty {
        let searchPath = PluginSearchPath(pluginDirectories: [], environment: environment, executablePath: ProcessEnvironment.executablePath())
        if let described = PluginHost.describedOptions(
            of: name, searchPath: searchPath,
            inspect: PluginInspection.inChild(executable: "/proc/self/exe", allowUnsafePermissions: false)),
            !described.isEmpty
        {
            options = described
            _ = PluginOptionCache.write(PluginOptionCache.merging(described, of: name, into: cache), to: cache)
        }
    }
    for option in options {
        Console.write(1, "\(option.key)\t\(option.kind.rawValue)\n")
    }
    exit(0)
}

let invocation: Invocation
do {
    invocation = try Options.parse(arguments, environment: environment)
} catch {
    fail(error.description, code: error.exitCode)
}
let settings = invocation.settings
let executable = ProcessEnvironment.executablePath()
let searchPath = PluginSearchPath(
    pluginDirectories: settings.pluginDirectories, environment: environment, executablePath: executable)
let isolation = PluginIsolationSettings(
    mode: settings.pluginIsolation, hostExecutable: PluginIsolationSettings.findHostExecutable(executablePath: "/proc/self/exe"),
    memoryLimitBytes: UInt64(settings.pluginMemoryLimitMiB) * 1_048_576,
    bundledDirectories: PluginIsolationSettings.bundledDirectories(of: searchPath), sandbox: settings.pluginSandbox)

switch invocation.action {
case .help:
    Console.write(1, Options.helpText)
    exit(0)
case .version:
    Console.write(
        1, "motet \(motetVersion) (plugin ABI \(MOTET_ABI_MAJOR).\(MOTET_ABI_MINOR), Swift \(PluginHost.swiftToolchain))\n")
    exit(0)
case .listPlugins:
    let listing = PluginHost.listingAndOptions(
        searchPath: searchPath, allowUnsafePermissions: settings.allowUnsafePlugins,
        named: settings.plugins.filter(\.fromCommandLine),
        inspect: PluginInspection.inChild(executable: "/proc/self/exe", allowUnsafePermissions: settings.allowUnsafePlugins),
        isolation: isolation)
    Console.write(1, listing.text)
    // The option keys for shell completion, which must not load plugins to find them.
    let cache = PluginOptionCache.path(XDGDirectories(environment: environment))
    if let problem = PluginOptionCache.write(listing.options, to: cache) {
        Console.write(2, "motet: completion cache: \(problem)\n")
    }
    // Non-zero when a plugin listed cannot load (the listing says why), so that scripts notice.
    exit(listing.unloadable == 0 ? 0 : 1)
case .play:
    break
}

// A plugin the user named on this command line and that cannot start ends motet before it plays
// (exit 64, like any other mistake on the command line); one from the config file is a warning.
if !settings.noPlugins {
    let problems = PluginHost.commandLineProblems(
        settings.plugins, searchPath: searchPath, allowUnsafePermissions: settings.allowUnsafePlugins, isolation: isolation)
    if !problems.isEmpty {
        // One line each, as for any other mistake on the command line; nothing has played.
        Console.write(2, problems.map { $0 + "\n" }.joined())
        exit(64)
    }
}

// Keys come from the terminal even when standard input is a pipe (`ls *.ogg | motet -`).
let keyboardTerminal = KeyboardTerminal.open()
let consoleMode: Console.Mode =
    switch settings.statusLine {
    case .auto: isatty(2) == 1 && keyboardTerminal != nil ? .line : .events
    case .line: .line
    case .events: .events
    case .quiet: .quiet
    }
let console = Console(mode: consoleMode, environment: environment)
// Every notice, warning and error line (the player's, the output's, the delegates' log) goes through
// here: one that repeats is said once, then summed up at most once per 10 s and at exit. What a key
// asks for (the `h` help) is written directly.
let repeatedMessages = Locked(RepeatedMessageLimiter(clock: { .now() }))
let notify: @Sendable (String) -> Void = { text in
    repeatedMessages.withLock { limiter in for line in limiter.lines(for: text) { console.message(line) } }
}
func sayUnsaidRepeats() {
    repeatedMessages.withLock { limiter in for line in limiter.finish() { console.message(line) } }
}
for warning in invocation.warnings { notify(warning) }

if settings.inputs.contains("-") && isatty(0) == 1 {
    notify("motet: reading the files to play from the terminal, one per line; end with Ctrl-D.")
}
// How URLs (streams, and remote playlists through `NetworkFetch.get`) are fetched.
let networkOptions: NetworkOptions = {
    var n = NetworkOptions()
    n.userAgent = "Motet/\(motetVersion)"
    n.prebuffer = settings.prebuffer
    n.reconnectFor = settings.reconnectFor
    n.timeout = settings.networkTimeout
    return n
}()
// libcurl is loaded only if an input is a remote playlist (NetworkFetch loads it on first use).
let (expanded, titles, origins, inputWarnings) = InputExpander.expandWithTitles(
    settings.inputs, fetch: InputExpander.networkFetch(options: networkOptions))
// Delegates get absolute paths (MPRIS and notification servers need file:// URIs); URLs stay as they are.
let files = expanded.map { WebAddress.looksLikeURL($0) ? $0 : ProcessEnvironment.absolutePath($0) }
for warning in inputWarnings { notify(warning) }
guard !files.isEmpty else {
    fail("motet: nothing to play: none of the inputs is a playable file.", code: ExitStatus.nothingPlayable.rawValue)
}

let device: any AudioOutput
do {
    device = try OutputFactory.make(
        settings.output, untimed: settings.untimed, clientName: "Motet", pauseForCalls: settings.pauseForCalls,
        notice: notify)
} catch {
    fail("\(error)", code: ExitStatus.outputFailed.rawValue)
}

let playerConfiguration: PlayerConfiguration = {
    var c = PlayerConfiguration(
        files: files, artworkCacheDirectory: XDGDirectories(environment: environment).cacheHome + "/motet/artwork")
    c.titles = titles
    c.origins = origins
    c.shuffle = settings.shuffle
    c.loop = settings.loop
    c.start = settings.start ?? .zero
    c.replayGain = settings.replayGain
    c.volume = settings.volume
    c.skipLimit = settings.skipLimit.map { ($0.count, $0.minutes) }
    c.defaultArtwork = settings.defaultArtwork
    c.remoteCommands = settings.remoteCommands
    c.feedbackDirectory = FeedbackStore.defaultDirectory(environment: environment)
    c.network = networkOptions
    c.skipDisliked = settings.skipDisliked
    c.crossfade = settings.crossfade
    c.crossfadeAlbums = settings.crossfadeAlbums
    c.outputRate = settings.outputRate
    // The status line shows elapsed seconds; nothing else needs a periodic refresh.
    c.displayInterval = consoleMode == .line ? .seconds(1) : nil
    return c
}()

// The host and the player refer to each other: plugins send commands to the player, the player
// sends events to the plugins. The reference is set once, before anything can use it.
let playerReference = PlayerReference()
let pluginHost = PluginHost(
    PluginHost.Configuration(
        hostVersion: motetVersion, artworkCacheDirectory: playerConfiguration.artworkCacheDirectory,
        remoteCommands: settings.remoteCommands,
        log: notify,
        commands: { command, track, instance in
            playerReference.player?.send(command, track: track, from: .plugin(instance)) ?? .refused("the player is not running")
        },
        isolation: isolation, stateDirectoryBase: XDGDirectories(environment: environment).stateHome + "/motet/plugins"))
let player = Player(
    configuration: playerConfiguration, device: device,
    events: { event in
        pluginHost.publish(event)
        console.handle(event)
    },
    display: { console.show($0) },
    message: notify)
playerReference.set(player)

if !settings.noPlugins && !settings.plugins.isEmpty {
    pluginHost.load(settings.plugins, searchPath: searchPath, allowUnsafePermissions: settings.allowUnsafePlugins)
}

let terminalMode = TerminalMode(fd: keyboardTerminal ?? 0)
let keyboard = KeyboardInput()
SignalWatcher.start { event in
    switch event {
    case .stop(let count):
        if count > 1 {
            terminalMode.restore()
            console.finish()
            _exit(130)
        }
        player.send(.quit, from: .user)
    case .suspend:
        console.suspend()
        terminalMode.suspend()
    case .resume:
        terminalMode.resume()
        console.resume()
        keyboard.recheck()
    case .resize:
        console.resize()
    }
}
// Keys with the status line, and also when output is redirected (`motet … >log 2>&1` in a
// terminal: events go to the file, keys still work); not when events were asked for by name
// (`--status events`, for scripts) or for `--status quiet`.
if let keyboardTerminal, consoleMode == .line || settings.statusLine == .auto {
    terminalMode.start()
    keyboard.start(
        fd: keyboardTerminal, send: { player.send($0, from: .user) },
        console: { key in
            switch key {
            case .help: console.message(KeyboardInput.keys + "\n" + KeyTable.liveStreamNote)
            case .redraw: console.redrawAll()
            }
        },
        foreground: {
            terminalMode.resume()
            console.resume()
            player.setDisplayShown(true)
        },
        // A background job's status line is on no screen: nothing redraws it, nothing wakes for it.
        background: { player.setDisplayShown(false) })
}

let outcome = player.run()
terminalMode.restore()
sayUnsaidRepeats()
console.finish()
let abandoned = pluginHost.shutdown(timeout: PluginHost.shutdownWait)
_ = abandoned  // the host has already named each plugin it gave up on
sayUnsaidRepeats()  // what the delegates repeated while they stopped
// The player has said why when it is not 0; the rules are ExitStatus's (and --help's).
exit(outcome.exitStatus.rawValue)
