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

let invocation: Invocation
do {
    invocation = try Options.parse(Array(CommandLine.arguments.dropFirst()), environment: environment)
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
    Console.write(1, "motet \(motetVersion) (plugin ABI \(MOTET_ABI_MAJOR).\(MOTET_ABI_MINOR))\n")
    exit(0)
case .listPlugins:
    Console.write(1, PluginHost.listing(searchPath: searchPath, allowUnsafePermissions: settings.allowUnsafePlugins))
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

let sink: any AudioSink
do {
    sink = try SinkFactory.make(
        settings.output, untimed: settings.untimed, clientName: "Motet",
        notice: { console.message($0) })
} catch {
    fail("\(error)", code: 1)
}

let playerConfiguration: PlayerConfiguration = {
    var c = PlayerConfiguration(
        files: files, artworkCacheDirectory: ProcessEnvironment.cacheDirectory(environment) + "/artwork")
    c.shuffle = settings.shuffle
    c.loop = settings.loop
    c.startMicros = settings.startMicros ?? 0
    c.replayGain = ReplayGainMode(rawValue: settings.replayGain.rawValue) ?? .track
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
        commands: { command, instance in
            playerReference.player?.send(command, from: .plugin(instance)) ?? .refused("the player is not running")
        }))
let player = Player(
    configuration: playerConfiguration, sink: sink,
    events: { event in
        pluginHost.publish(event)
        console.handle(event)
    },
    display: { console.show($0) },
    message: { console.message($0) })
playerReference.set(player)

if !settings.noPlugins && !settings.plugins.isEmpty {
    pluginHost.load(
        settings.plugins.map {
            PluginRequest(
                nameOrPath: $0.name, options: $0.options.map { PluginOptionPair(key: $0.key, value: $0.value) },
                instanceName: $0.instanceName, origin: $0.origin, allowUnsafePermissions: settings.allowUnsafePlugins)
        }, searchPath: searchPath)
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
let abandoned = pluginHost.shutdown(timeoutSeconds: 3)
_ = abandoned  // the host has already named each plugin it gave up on
// 1 when nothing played, or when the output failed (the player has said why).
exit(outcome.playedAnything && !outcome.outputFailed ? 0 : 1)
