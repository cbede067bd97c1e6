// motet: the program a person runs. Thin on purpose: parse, wire the parts together, play.
#if canImport(Glibc)
import Glibc
#endif
import MotetConfiguration
import MotetCore
import MotetOutput
import MotetPluginABI
import MotetPluginHost

let motetVersion = "0.1.0"

// Signals are taken by one thread (sigwait), so block them before any thread starts.
SignalWatcher.blockHandledSignals()
signal(SIGPIPE, SIG_IGN)

let environment = ProcessEnvironment.current()

func fail(_ text: String, code: Int32) -> Never {
    Console.write(2, text + "\n")
    exit(code)
}

// Hidden, for the build and the shell: `--generate man|plugins-man README…|bash|zsh|fish` prints a
// document generated from the option table (make install, make deb); `--complete-plugin-names`
// lists the names on the search path without loading any plugin, and `--complete-plugin-options
// NAME` a plugin's option keys from the cache `--list-plugins` writes (the completion scripts).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--generate" {
    guard arguments.count >= 2, let kind = GeneratedDocument(rawValue: arguments[1]) else {
        fail("motet: --generate takes one of: \(GeneratedDocument.allCases.map(\.rawValue).joined(separator: ", "))", code: 64)
    }
    switch kind.render(version: motetVersion, inputFiles: Array(arguments.dropFirst(2))) {
    case .success(let text): Console.write(1, text)
    case .failure(let error): fail(error.description, code: 1)
    }
    exit(0)
}
if arguments == [GeneratedDocument.pluginNamesFlag] {
    let searchPath = PluginSearchPath(pluginDirectories: [], environment: environment, executablePath: ProcessEnvironment.executablePath())
    for name in PluginHost.names(searchPath: searchPath) { Console.write(1, name + "\n") }
    exit(0)
}
if arguments.count == 2 && arguments[0] == PluginOptionCache.flag {
    let cache = PluginOptionCache.path(XDGDirectories(environment: environment))
    for option in PluginOptionCache.options(of: arguments[1], in: cache) {
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

switch invocation.action {
case .help:
    Console.write(1, Options.helpText)
    exit(0)
case .version:
    Console.write(
        1, "motet \(motetVersion) (plugin ABI \(MOTET_ABI_MAJOR).\(MOTET_ABI_MINOR), Swift \(PluginHost.swiftToolchain))\n")
    exit(0)
case .listPlugins:
    let listing = PluginHost.listingAndOptions(searchPath: searchPath, allowUnsafePermissions: settings.allowUnsafePlugins)
    Console.write(1, listing.text)
    // The option keys for shell completion, which must not load plugins to find them.
    let cache = PluginOptionCache.path(XDGDirectories(environment: environment))
    if let problem = PluginOptionCache.write(listing.options, to: cache) {
        Console.write(2, "motet: completion cache: \(problem)\n")
    }
    exit(0)
case .play:
    break
}

let consoleMode: Console.Mode =
    switch settings.statusLine {
    case .auto: isatty(2) == 1 && isatty(0) == 1 ? .line : .events
    case .line: .line
    case .events: .events
    case .quiet: .quiet
    }
let console = Console(mode: consoleMode, environment: environment)
for warning in invocation.warnings { console.message(warning) }

if settings.inputs.contains("-") && isatty(0) == 1 {
    console.message("motet: reading the files to play from the terminal, one per line; end with Ctrl-D.")
}
let (expanded, inputWarnings) = InputExpander.expand(settings.inputs)
// Delegates get absolute paths (MPRIS and notification servers need file:// URIs).
let files = expanded.map(ProcessEnvironment.absolutePath)
for warning in inputWarnings { console.message(warning) }
guard !files.isEmpty else {
    fail("motet: nothing to play: none of the inputs is a playable file.", code: 1)
}

let device: any AudioDevice
do {
    device = try SinkFactory.make(
        settings.output, untimed: settings.untimed, clientName: "Motet", pauseForCalls: settings.pauseForCalls,
        notice: { console.message($0) })
} catch {
    fail("\(error)", code: 1)
}

let playerConfiguration: PlayerConfiguration = {
    var c = PlayerConfiguration(
        files: files, artworkCacheDirectory: XDGDirectories(environment: environment).cacheHome + "/motet/artwork")
    c.shuffle = settings.shuffle
    c.loop = settings.loop
    c.startMicros = settings.startMicros ?? 0
    c.replayGain = settings.replayGain
    c.volume = settings.volume
    c.skipLimit = settings.skipLimit.map { ($0.count, $0.minutes) }
    c.defaultArtwork = settings.defaultArtwork
    c.remoteCommands = settings.remoteCommands
    c.feedbackDirectory = FeedbackStore.defaultDirectory(environment: environment)
    // The status line shows elapsed seconds; nothing else needs a periodic refresh.
    c.displayIntervalMicros = consoleMode == .line ? 1_000_000 : nil
    return c
}()

// The host and the player refer to each other: plugins send commands to the player, the player
// sends events to the plugins. The reference is set once, before anything can use it.
let playerReference = PlayerReference()
let pluginHost = PluginHost(
    PluginHost.Configuration(
        hostVersion: motetVersion, artworkCacheDirectory: playerConfiguration.artworkCacheDirectory,
        remoteCommands: settings.remoteCommands,
        log: { console.message($0) },
        commands: { command, track, instance in
            playerReference.player?.send(command, track: track, from: .plugin(instance)) ?? .refused("the player is not running")
        }))
let player = Player(
    configuration: playerConfiguration, device: device,
    events: { event in
        pluginHost.publish(event)
        console.handle(event)
    },
    display: { console.show($0) },
    message: { console.message($0) })
playerReference.set(player)

if !settings.noPlugins && !settings.plugins.isEmpty {
    pluginHost.load(settings.plugins, searchPath: searchPath, allowUnsafePermissions: settings.allowUnsafePlugins)
}

let terminalMode = TerminalMode()
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
if consoleMode == .line {
    terminalMode.start()
    keyboard.start(
        send: { player.send($0, from: .user) },
        console: { key in
            switch key {
            case .help: console.message(KeyboardInput.keys)
            case .redraw: console.redrawAll()
            }
        },
        foreground: {
            terminalMode.resume()
            console.resume()
        })
}

let outcome = player.run()
terminalMode.restore()
console.finish()
let abandoned = pluginHost.shutdown(timeoutSeconds: PluginHost.shutdownWaitSeconds)
_ = abandoned  // the host has already named each plugin it gave up on
// 1 when nothing played, or when the output failed (the player has said why).
exit(outcome.playedAnything && !outcome.outputFailed ? 0 : 1)
