import Foundation
import MotetConfiguration
import MotetEvents
import MotetTestSupport
import Testing

@Suite struct ConfigFileTests {
    /// Writes `text` as a config file in a fresh directory and returns its path.
    private func configFile(_ text: String) throws -> String {
        let dir = try Paths.temporaryDirectory("motet-config")
        let path = dir + "/motet.conf"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func parseWith(_ text: String, _ arguments: [String] = ["a.ogg"]) throws -> (Invocation, String) {
        let path = try configFile(text)
        return (try parse(["--config", path] + arguments), path)
    }

    private func errorWith(_ text: String, _ arguments: [String] = ["a.ogg"]) throws -> (UsageError?, String) {
        let path = try configFile(text)
        return (usageError(["--config", path] + arguments), path)
    }

    @Test func everyKeyIsRead() throws {
        let (invocation, path) = try parseWith("""
            # a comment
            ; another comment

            output = wav-float:/tmp/out.wav
            untimed = yes
            shuffle = true
            loop = 1
            start = 1:30
            replaygain = album
            volume = 80
            skip-limit = 6/60
            default-artwork = /usr/share/pixmaps/cover.png
            status = events
            plugin = log:level=debug
            plugin-dir = /opt/motet/plugins
            allow-unsafe-plugins = on
            remote-commands = no
            """)
        let s = invocation.settings
        #expect(s.output == .wav(path: "/tmp/out.wav", float: true))
        #expect(s.untimed && s.shuffle && s.loop && s.allowUnsafePlugins && !s.remoteCommands)
        #expect(s.start == .seconds(90) && s.replayGain == .album && s.volume == 80)
        #expect(s.skipLimit == SkipLimit(count: 6, minutes: 60))
        #expect(s.defaultArtwork == "/usr/share/pixmaps/cover.png" && s.statusLine == .events)
        #expect(s.plugins == [PluginRequest(name: "log", options: [PluginOption(key: "level", value: "debug")], instanceName: "log", origin: "\(path):14")])
        #expect(s.pluginDirectories == ["/opt/motet/plugins"])
        #expect(s.configFile == path && s.inputs == ["a.ogg"])
        #expect(invocation.warnings.isEmpty)
    }

    @Test func crlfByteOrderMarkQuotesAndBlanksAreFine() throws {
        let (invocation, _) = try parseWith("\u{FEFF}volume=7\r\n\r\n  \t# indented comment\r\ndefault-artwork = \"  spaced name.png \"\r\nno-remote-commands = yes\r\n")
        #expect(invocation.settings.volume == 7)
        #expect(invocation.settings.defaultArtwork == "  spaced name.png ")
        #expect(!invocation.settings.remoteCommands)
    }

    @Test func commandLineOverridesTheFile() throws {
        let (invocation, _) = try parseWith(
            "volume = 50\nshuffle = yes\noutput = wav:/tmp/f.wav\nremote-commands = no\n",
            ["--volume", "70", "--shuffle=no", "--untimed", "--remote-commands", "yes", "a.ogg"])
        let s = invocation.settings
        #expect(s.volume == 70 && !s.shuffle && s.remoteCommands)
        #expect(s.output == .wav(path: "/tmp/f.wav", float: false) && s.untimed, "untimed from the CLI, output from the file")
    }

    @Test func duplicateKeysLastWinsWithAWarning() throws {
        let (invocation, path) = try parseWith("volume = 10\nvolume = 20\n")
        #expect(invocation.settings.volume == 20)
        #expect(invocation.warnings == ["motet: \(path):2: volume: set again (first on line 1); the last value wins."])
    }

    @Test func pluginSectionsAndCommandLinePluginsInOrder() throws {
        let (invocation, path) = try parseWith("""
            plugin = json
            [plugin log]
            level = debug
            format = %t — %a

            [plugin quiet-log]
            file = /opt/motet/libmotet-log.so
            level = error
            [plugin log]
            """, ["--plugin", "log:level=info", "--plugin-dir", "/cli", "a.ogg"])
        let specs = invocation.settings.plugins
        #expect(specs.map(\.name) == ["json", "log", "/opt/motet/libmotet-log.so", "log", "log"])
        #expect(specs.map(\.instanceName) == ["json", "log", "quiet-log", "log#2", "log#3"])
        #expect(specs.map(\.origin) == ["\(path):1", "\(path):2", "\(path):6", "\(path):9", "--plugin"])
        // Each option of a section remembers its own line, for messages about it.
        #expect(specs[1].options == [
            PluginOption(key: "level", value: "debug", origin: "\(path):3"),
            PluginOption(key: "format", value: "%t — %a", origin: "\(path):4"),
        ])
        #expect(specs[2].options == [PluginOption(key: "level", value: "error", origin: "\(path):8")])
        #expect(specs[4].options == [PluginOption(key: "level", value: "info")])
        #expect(invocation.settings.pluginDirectories == ["/cli"])
    }

    @Test func pluginDirectoriesFromTheCommandLineComeFirst() throws {
        let (invocation, _) = try parseWith("plugin-dir = /file1\nplugin-dir = /file2\n", ["--plugin-dir", "/cli", "a.ogg"])
        #expect(invocation.settings.pluginDirectories == ["/cli", "/file1", "/file2"])
        #expect(invocation.warnings.isEmpty, "repeatable keys are not duplicates")
    }

    @Test func noPluginsOnTheCommandLineDropsTheFilesPlugins() throws {
        let (invocation, _) = try parseWith("[plugin log]\n", ["--no-plugins", "a.ogg"])
        #expect(invocation.settings.plugins.isEmpty && invocation.settings.noPlugins)
        #expect(invocation.warnings.isEmpty)
    }

    @Test func noPluginsInTheFileLeavesCommandLinePlugins() throws {
        let (only, _) = try parseWith("no-plugins = yes\n[plugin log]\n")
        #expect(only.settings.plugins.isEmpty && only.settings.noPlugins)
        let (withCLI, _) = try parseWith("no-plugins = yes\n[plugin log]\n", ["--plugin", "json", "a.ogg"])
        #expect(withCLI.settings.plugins.map(\.name) == ["json"] && !withCLI.settings.noPlugins)
    }

    @Test func libraryNamesTheSharedObjectAndLeavesFileToThePlugin() throws {
        let (invocation, path) = try parseWith("""
            [plugin notes]
            file = a.txt
            library = /opt/notes.so
            file = b.txt
            [plugin old]
            file = /opt/old.so
            level = 2
            """, ["a.ogg"])
        let specs = invocation.settings.plugins
        #expect(specs.map(\.name) == ["/opt/notes.so", "/opt/old.so"])
        #expect(specs[0].options == [
            PluginOption(key: "file", value: "a.txt", origin: "\(path):2"), PluginOption(key: "file", value: "b.txt", origin: "\(path):4"),
        ])
        #expect(specs[0].deprecatedFileKey == nil)
        #expect(specs[1].options == [PluginOption(key: "level", value: "2", origin: "\(path):7")])
        #expect(specs[1].deprecatedFileKey == "/opt/old.so")  // decided at load: the file, or the plugin's option
    }

    @Test func aCommentMayFollowAValueAfterABlank() throws {
        let (invocation, path) = try parseWith("""
            volume = 80 # quieter
            shuffle = yes\t# tab before it
            default-artwork = /pictures/a#b.png  # the first '#' is part of the path
            [plugin log]  # a section header too
            path = "/logs/My #1 log.txt" # quoted: the '#' inside is kept
            format = plain#text
            """)
        let s = invocation.settings
        #expect(s.volume == 80)
        #expect(s.shuffle)
        #expect(s.defaultArtwork == "/pictures/a#b.png")
        #expect(s.plugins.map(\.instanceName) == ["log"])
        #expect(s.plugins.first?.options == [
            PluginOption(key: "path", value: "/logs/My #1 log.txt", origin: "\(path):5"),
            PluginOption(key: "format", value: "plain#text", origin: "\(path):6"),
        ])
    }

    @Test func badLinesNameFileAndLine() throws {
        let cases: [(String, String)] = [
            ("volume = 5\nvolume 50\n", "2: 'volume 50' is not 'key = value', a '[plugin NAME]' section header, or a comment."),
            ("colour = blue\n", "1: unknown key 'colour'. The keys are the long options without '--'; try 'motet --help'."),
            ("\n\n\nvolume = 150\n", "4: volume: '150' is not a number from 0 to 100."),
            ("output =\n", "1: output: '' is not an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null."),
            ("shuffle = sometimes\n", "1: shuffle: 'sometimes' is not yes or no (also true/false, on/off, 1/0)."),
            ("[plugin log\nlevel = 1\n", "1: section header '[plugin log' has no closing ']'; write '[plugin NAME]'."),
            ("[output]\n", "1: unknown section '[output]'; the only sections are '[plugin NAME]'."),
            ("[plugin]\n", "1: unknown section '[plugin]'; the only sections are '[plugin NAME]'."),
            ("[plugin lo g]\n", "1: 'lo g' is not a plugin name (letters, digits, '-', '_', '.', not starting with '.') or a path containing '/'."),
            ("[plugin .hidden]\n", "1: '.hidden' is not a plugin name (letters, digits, '-', '_', '.', not starting with '.') or a path containing '/'."),
            ("[plugin x]\nfile =\n", "2: file: '' is not the path of a plugin's shared object."),
            ("[plugin x]\nlibrary =\n", "2: library: '' is not the path of a plugin's shared object."),
            ("= yes\n", "1: a key is missing before '='."),
            ("config = /etc/motet.conf\n", "1: 'config' can only be given on the command line (--config)."),
            ("help = yes\n", "1: 'help' can only be given on the command line (--help)."),
            ("inputs = a.ogg\n", "1: 'inputs' cannot be set in the config file; give FILE|DIR|PLAYLIST on the command line."),
            ("plugin = log:a=\\q\n", "1: plugin: 'log:a=\\q': unknown escape '\\q'; only ',' ':' '=' and '\\' are escaped with '\\'."),
            ("volume = 5\u{0}\n", "1: the line contains a NUL byte; the config file must be text."),
            ("untimed = yes\n", "1: untimed: only works with --output null, wav:PATH or wav-float:PATH (the output is 'auto')."),
        ]
        for (text, tail) in cases {
            let (error, path) = try errorWith(text)
            #expect(error?.description == "motet: \(path):\(tail)", "for \(text.debugDescription)")
            #expect(error?.exitCode == 64)
        }
    }

    @Test func commandLineErrorsComeBeforeTheFileIsRead() throws {
        let (error, _) = try errorWith("colour = blue\n", ["--foo", "a.ogg"])
        #expect(error?.description == "motet: unknown option '--foo'. Try 'motet --help'.")
    }

    @Test func defaultFileIsFoundThroughXDGConfigHome() throws {
        let home = try Paths.temporaryDirectory("motet-xdg")
        try FileManager.default.createDirectory(atPath: home + "/motet", withIntermediateDirectories: true)
        try Data("volume = 33\n".utf8).write(to: URL(fileURLWithPath: home + "/motet/motet.conf"))
        let environment = ["XDG_CONFIG_HOME": home, "HOME": "/nonexistent-motet-home"]
        let found = try settings(["a.ogg"], environment: environment)
        #expect(found.volume == 33 && found.configFile == home + "/motet/motet.conf")
        let skipped = try settings(["--no-config", "a.ogg"], environment: environment)
        #expect(skipped.volume == 100 && skipped.configFile == nil)
    }

    @Test func homeConfigIsTheFallbackAndRelativeXDGIsIgnored() throws {
        let home = try Paths.temporaryDirectory("motet-home")
        try FileManager.default.createDirectory(atPath: home + "/.config/motet", withIntermediateDirectories: true)
        try Data("loop = yes\n".utf8).write(to: URL(fileURLWithPath: home + "/.config/motet/motet.conf"))
        let s = try settings(["a.ogg"], environment: ["HOME": home, "XDG_CONFIG_HOME": "relative/dir"])
        #expect(s.loop && s.configFile == home + "/.config/motet/motet.conf")
        #expect(Options.defaultConfigPath(environment: ["HOME": "/h"]) == "/h/.config/motet/motet.conf")
    }

    @Test func aMissingDefaultFileIsFineButAnUnreadableOneIsNot() throws {
        let empty = try Paths.temporaryDirectory("motet-xdg-empty")
        #expect(try settings(["a.ogg"], environment: ["XDG_CONFIG_HOME": empty]).configFile == nil)
        let broken = try Paths.temporaryDirectory("motet-xdg-broken")
        try FileManager.default.createDirectory(atPath: broken + "/motet/motet.conf", withIntermediateDirectories: true)
        expectUsageError(["a.ogg"],
            "motet: cannot read the config file '\(broken)/motet/motet.conf': is a directory. Fix it, or run with --no-config.",
            environment: ["XDG_CONFIG_HOME": broken])
    }

    @Test func theExampleConfigFileParses() throws {
        let example = Paths.packageRoot + "/Examples/motet.conf"
        let invocation = try parse(["--config", example, "a.ogg"])
        #expect(invocation.warnings.isEmpty)
        #expect(invocation.settings.configFile == example)
        // Every key of the option table that the file may hold is documented in the example.
        let text = try String(contentsOfFile: example, encoding: .utf8)
        for key in [
            "output", "untimed", "shuffle", "loop", "start", "replaygain", "volume", "skip-limit", "default-artwork",
            "status", "plugin", "plugin-dir", "no-plugins", "allow-unsafe-plugins", "remote-commands", "no-remote-commands",
        ] {
            #expect(text.contains("\n# \(key) = ") || text.contains("\n\(key) = "), "Examples/motet.conf lacks \(key)")
        }
    }
}
