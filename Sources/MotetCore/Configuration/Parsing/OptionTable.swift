import MotetEvents
import MotetSystem

/// The one option table shared by the command line, the config file and `--help`.
enum OptionTable {
    /// A flag: true when bare on the command line, else yes/no.
    private static func flag(_ value: String?) throws(ParseProblem) -> Bool {
        guard let value else { return true }
        return try ValueParsers.boolean(value)
    }

    /// A value option's value (never nil: the lexers guarantee one).
    private static func required(_ value: String?) -> String { value ?? "" }

    /// A flag that sets one boolean setting.
    private static func settingFlag(
        _ name: String, _ setting: WritableKeyPath<Settings, Bool> & Sendable, help: String
    ) -> OptionDefinition {
        OptionDefinition(
            name: name, short: nil, kind: .flag, allowedInConfigFile: true, repeatable: false, help: help,
            apply: { draft, value, _ throws(ParseProblem) in draft.settings[keyPath: setting] = try flag(value) })
    }

    /// A `yes|no` value option that sets one boolean setting.
    private static func settingYesNo(
        _ name: String, _ setting: WritableKeyPath<Settings, Bool> & Sendable, help: String
    ) -> OptionDefinition {
        OptionDefinition(
            name: name, short: nil, kind: .value(placeholder: "yes|no", expected: ValueParsers.booleanExpected),
            allowedInConfigFile: true, repeatable: false, help: help,
            apply: { draft, value, _ throws(ParseProblem) in
                draft.settings[keyPath: setting] = try ValueParsers.boolean(required(value))
            })
    }

    /// A value option whose values are the raw values of an enum.
    private static func settingChoice<E: RawRepresentable & CaseIterable & Sendable & SendableMetatype>(
        _ name: String, _ setting: WritableKeyPath<Settings, E> & Sendable, help: String
    ) -> OptionDefinition where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        let expected = names.dropLast().joined(separator: ", ") + " or " + names.last!
        return OptionDefinition(
            name: name, short: nil, kind: .value(placeholder: names.joined(separator: "|"), expected: expected),
            allowedInConfigFile: true, repeatable: false, help: help,
            apply: { draft, value, _ throws(ParseProblem) in
                draft.settings[keyPath: setting] = try ValueParsers.choice(required(value), of: E.self, expected: expected)
            })
    }

    /// All options, in the order `--help` lists them.
    static let all: [OptionDefinition] = [
        OptionDefinition(
            name: "output", short: "o",
            kind: .value(placeholder: "auto|pulse|alsa[:DEVICE]|wav:PATH|wav-float:PATH|null", expected: ValueParsers.outputExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Where the sound goes. auto (default): PulseAudio, then ALSA, else null. wav: 16-bit, wav-float: 32-bit float file; null: nothing, paced in real time.",
            apply: { draft, value, _ throws(ParseProblem) in
                draft.settings.output = try ValueParsers.output(required(value))
                draft.outputText = required(value)
            }),
        OptionDefinition(
            name: "untimed", short: nil, kind: .flag, allowedInConfigFile: true, repeatable: false,
            help: "Decode as fast as possible instead of in real time (only with null or wav outputs).",
            apply: { draft, value, source throws(ParseProblem) in
                draft.settings.untimed = try flag(value)
                draft.untimedSource = source
            }),
        settingYesNo(
            "pause-for-calls", \.pauseForCalls,
            help: "Pause while a phone or communication stream plays, and resume after it (default yes). Works on PulseAudio and on PipeWire, which does not cork other streams itself."),
        settingFlag("shuffle", \.shuffle, help: "Play the tracks in random order."),
        settingYesNo(
            "skip-disliked", \.skipDisliked,
            help: "Pass over a track disliked earlier, with one line saying so (default yes); such skips never count against the skip limit. When a whole pass of the queue has nothing left to play, motet says so and stops."),
        settingFlag("loop", \.loop, help: "Start again from the first track after the last one."),
        OptionDefinition(
            name: "start", short: nil,
            kind: .value(placeholder: "TIME", expected: ValueParsers.timeExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Start the first track at TIME: SS, MM:SS or HH:MM:SS, with an optional .fraction. A TIME past its end is said in one line and the next track plays (exit status 66 if none does).",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.start = try ValueParsers.time(required(value)) }),
        settingChoice(
            "replaygain", \.replayGain,
            help: "Which ReplayGain tags (Opus: R128 gains, see LOUDNESS) set the loudness (default track); peaks prevent clipping."),
        OptionDefinition(
            name: "volume", short: nil,
            kind: .value(placeholder: "0-100", expected: ValueParsers.volumeExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Playback volume in percent (default 100).",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.volume = try ValueParsers.volume(required(value)) }),
        OptionDefinition(
            name: "crossfade", short: nil,
            kind: .value(placeholder: "TIME", expected: ValueParsers.timeExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Overlap consecutive tracks by TIME, the one ending fading out as the next fades in (default 0: off; at most 15 s). Tracks of one album follow each other gaplessly unless --crossfade-albums yes.",
            apply: { draft, value, _ throws(ParseProblem) in
                let time = try ValueParsers.time(required(value))
                guard time <= Settings.maximumCrossfade else {
                    throw .badValue(required(value), explanation: "the crossfade is at most 15 seconds; give a time from 0 (off) to 15")
                }
                draft.settings.crossfade = time
            }),
        settingYesNo(
            "crossfade-albums", \.crossfadeAlbums,
            help: "Crossfade between the tracks of one album too (default no: they follow each other gaplessly, as the album was made)."),
        OptionDefinition(
            name: "output-rate", short: nil,
            kind: .value(placeholder: "HZ", expected: ValueParsers.sampleRateExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Resample every track to HZ, 8000 to 384000 (libsoxr, high quality). By default each track plays at its own rate.",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.outputRate = try ValueParsers.sampleRate(required(value)) }),
        OptionDefinition(
            name: "skip-limit", short: nil,
            kind: .value(placeholder: "N/MINUTES", expected: ValueParsers.skipLimitExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Allow at most N skips in any MINUTES minutes, like a licensed radio service (e.g. 6/60).",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.skipLimit = try ValueParsers.skipLimit(required(value)) }),
        OptionDefinition(
            name: "default-artwork", short: nil,
            kind: .value(placeholder: "FILE", expected: ValueParsers.pathExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Image to show when a track has no picture and no cover.jpg/cover.png/folder.jpg/front.jpg beside it.",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.defaultArtwork = try ValueParsers.path(required(value)) }),
        settingChoice(
            "status", \.statusLine,
            help: "What the player prints: a status line with keys, one line per event, or nothing but problems. auto (default): line on a terminal, events otherwise."),
        OptionDefinition(
            name: "prebuffer", short: nil,
            kind: .value(placeholder: "TIME", expected: ValueParsers.timeExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Audio buffered from an http:// or https:// URL before it plays, and again after the network fell behind (default 1.5 s; 0 to 10 s).",
            apply: { draft, value, _ throws(ParseProblem) in
                let time = try ValueParsers.time(required(value))
                guard time <= .seconds(10) else { throw .badValue(required(value), explanation: "the pre-buffer is at most 10 seconds") }
                draft.settings.prebuffer = time
            }),
        OptionDefinition(
            name: "reconnect-for", short: nil,
            kind: .value(placeholder: "TIME", expected: ValueParsers.timeExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "How long a lost stream is retried (after 1, 2, 4 … 30 s) before playing the next entry (default 60 s; 0: never).",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.reconnectFor = try ValueParsers.time(required(value)) }),
        OptionDefinition(
            name: "network-timeout", short: nil,
            kind: .value(placeholder: "TIME", expected: ValueParsers.timeExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "Give up connecting, or on a connection where (almost) nothing arrives, after TIME (default 15 s).",
            apply: { draft, value, _ throws(ParseProblem) in
                let time = try ValueParsers.time(required(value))
                guard time >= .seconds(1) else { throw .badValue(required(value), explanation: "the network timeout is at least 1 second") }
                draft.settings.networkTimeout = time
            }),
        OptionDefinition(
            name: "plugin", short: nil,
            kind: .value(placeholder: "NAME[:KEY=VALUE,...]", expected: "NAME[:KEY=VALUE,…] or PATH[:KEY=VALUE,…]"),
            allowedInConfigFile: true, repeatable: true,
            help: "Load a delegate plugin by name or by path (containing '/'), with options. Repeatable; the same plugin may run twice (instances log, log#2). Escape , : = \\ in values with \\.",
            apply: { draft, value, source throws(ParseProblem) in
                let parsed = try PluginSpecParser.parse(required(value))
                let instanceName = PluginSpecParser.defaultInstanceName(for: parsed.name)
                var request = PluginRequest(name: parsed.name, options: parsed.options, instanceName: instanceName, origin: source.origin)
                request.fromCommandLine = source.isCommandLine
                draft.addPlugin(request, from: source)
            }),
        OptionDefinition(
            name: "plugin-dir", short: nil,
            kind: .value(placeholder: "DIR", expected: "a directory"),
            allowedInConfigFile: true, repeatable: true,
            help: "Also search DIR for plugins given by name (repeatable; searched before $MOTET_PLUGIN_PATH, the user's and the installed plugin directories).",
            apply: { draft, value, source throws(ParseProblem) in
                let dir = try ValueParsers.path(required(value))
                if source.isCommandLine { draft.commandLineDirectories.append(dir) } else { draft.fileDirectories.append(dir) }
            }),
        OptionDefinition(
            name: "no-plugins", short: nil, kind: .flag, allowedInConfigFile: true, repeatable: false,
            help: "Load no plugin, not even those of the config file.",
            apply: { draft, value, source throws(ParseProblem) in
                let on = try flag(value)
                if source.isCommandLine {
                    draft.commandLineNoPlugins = on
                    if !on { draft.fileNoPlugins = false }
                } else {
                    draft.fileNoPlugins = on
                }
            }),
        settingFlag(
            "allow-unsafe-plugins", \.allowUnsafePlugins,
            help: "Load plugin files even when group/other-writable or owned by another user (refused otherwise)."),
        settingChoice(
            "plugin-isolation", \.pluginIsolation,
            help: "Which plugins run in a process of their own, where nothing they do can stop the music: third-party (default: all but the bundled delegates), always, or never (all in motet's process; for debugging a plugin)."),
        settingYesNo(
            "plugin-sandbox", \.pluginSandbox,
            help: "Whether an isolated plugin's process is sandboxed (default yes): it may write only to its state directory, the artwork cache and its output paths, and may not trace other processes. no (or off) for debugging a plugin."),
        OptionDefinition(
            name: "plugin-memory-limit", short: nil,
            kind: .value(placeholder: "MIB", expected: ValueParsers.memoryLimitExpected),
            allowedInConfigFile: true, repeatable: false,
            help: "The address space each plugin process may use, in MiB (default \(Settings.defaultPluginMemoryLimitMiB); 0: no limit). A plugin that needs more fails and is restarted.",
            apply: { draft, value, _ throws(ParseProblem) in
                draft.settings.pluginMemoryLimitMiB = try ValueParsers.memoryLimit(required(value))
            }),
        settingYesNo(
            "remote-commands", \.remoteCommands,
            help: "Whether plugins may control playback (default yes); with no, their commands are refused."),
        OptionDefinition(
            name: "no-remote-commands", short: nil, kind: .flag, allowedInConfigFile: true, repeatable: false,
            help: "Same as --remote-commands no.",
            apply: { draft, value, _ throws(ParseProblem) in draft.settings.remoteCommands = !(try flag(value)) }),
        OptionDefinition(
            name: "list-plugins", short: nil, kind: .flag, allowedInConfigFile: false, repeatable: false,
            help: "List the plugins found (name, version, description, ABI, file) and why a file cannot load, then exit (status 1 when one cannot). Each file is loaded in a child process of its own; with --plugin PATH, that file is listed too.",
            apply: { draft, value, _ throws(ParseProblem) in draft.listPlugins = try flag(value) }),
        OptionDefinition(
            name: "config", short: nil,
            kind: .value(placeholder: "FILE", expected: "a config file path"),
            allowedInConfigFile: false, repeatable: false,
            help: "Read FILE instead of \(XDGDirectories.documented(.config, Options.configFileUnderXDG)).",
            apply: { draft, value, _ throws(ParseProblem) in draft.configPath = try ValueParsers.path(required(value)) }),
        OptionDefinition(
            name: "no-config", short: nil, kind: .flag, allowedInConfigFile: false, repeatable: false,
            help: "Read no config file.",
            apply: { draft, value, _ throws(ParseProblem) in draft.noConfig = try flag(value) }),
        OptionDefinition(
            name: "help", short: "h", kind: .flag, allowedInConfigFile: false, repeatable: false,
            help: "Show this help and exit.",
            apply: { _, _, _ throws(ParseProblem) in }),
        OptionDefinition(
            name: "version", short: "V", kind: .flag, allowedInConfigFile: false, repeatable: false,
            help: "Show the version and exit.",
            apply: { _, _, _ throws(ParseProblem) in }),
    ]

    /// The option with this long name (or config key).
    static func named(_ name: String) -> OptionDefinition? { all.first { $0.name == name } }

    /// The option with this single-letter form.
    static func short(_ letter: Character) -> OptionDefinition? { all.first { $0.short == letter } }
}
