import MotetConfiguration
import Testing

@Suite struct CommandLineOptionTests {
    @Test func defaultsWithJustAnInput() throws {
        let invocation = try parse(["song.ogg"])
        #expect(invocation.action == .play)
        #expect(invocation.warnings.isEmpty)
        var expected = Settings()
        expected.inputs = ["song.ogg"]
        #expect(invocation.settings == expected)
        #expect(expected.output == .auto && expected.replayGain == .track && expected.volume == 100)
        #expect(expected.remoteCommands && expected.statusLine == .auto && expected.configFile == nil)
    }

    @Test func inputsKeepTheirOrderAroundOptions() throws {
        #expect(try settings(["a.ogg", "--shuffle", "b", "--volume", "5", "c.m3u"]).inputs == ["a.ogg", "b", "c.m3u"])
    }

    @Test func noInputIsAnError() {
        expectUsageError([], "motet: nothing to play: give a FILE, DIR or PLAYLIST. Try 'motet --help'.")
        expectUsageError(["--shuffle"], "motet: nothing to play: give a FILE, DIR or PLAYLIST. Try 'motet --help'.")
    }

    @Test func terminatorMakesEverythingAfterItAnInput() throws {
        let s = try settings(["--loop", "--", "--shuffle", "-h", "-"])
        #expect(s.inputs == ["--shuffle", "-h", "-"])
        #expect(s.loop && !s.shuffle)
    }

    @Test func unknownOptionsAreNamed() {
        expectUsageError(["--foo", "a.ogg"], "motet: unknown option '--foo'. Try 'motet --help'.")
        expectUsageError(["a.ogg", "-x"], "motet: unknown option '-x'. Try 'motet --help'.")
        expectUsageError(["--Volume=3", "a.ogg"], "motet: unknown option '--Volume'; did you mean '--volume'?")
        expectUsageError(["-Vx"], "motet: '-V' takes no value, but 'x' is glued to it. Try 'motet --help'.")
    }

    @Test func helpAndVersionWinOverEverything() throws {
        #expect(try parse(["--help"]).action == .help)
        #expect(try parse(["-h"]).action == .help)
        #expect(try parse(["--volume", "150", "--foo", "--help"]).action == .help)
        #expect(try parse(["--version"]).action == .version)
        #expect(try parse(["a.ogg", "-V", "--output", "nowhere"]).action == .version)
        #expect(try parse(["--plugin", "--help"]).action == .help)
        // After `--`, "--help" is a file name.
        #expect(try parse(["--", "--help"]).action == .play)
    }

    @Test func helpTextListsEveryOptionFromTheTable() {
        let help = Options.helpText
        #expect(help.hasPrefix("Usage: motet [OPTIONS] FILE|DIR|PLAYLIST|URL..."))
        for spelling in [
            "-o, --output auto|pulse|alsa[:DEVICE]|wav:PATH|wav-float:PATH|null", "--untimed", "--shuffle", "--loop",
            "--start TIME", "--replaygain track|album|off", "--volume 0-100", "--skip-limit N/MINUTES",
            "--default-artwork FILE", "--status auto|line|events|quiet", "--plugin NAME[:KEY=VALUE,...]",
            "--plugin-dir DIR", "--no-plugins", "--allow-unsafe-plugins", "--remote-commands yes|no",
            "--no-remote-commands", "--pause-for-calls yes|no", "--list-plugins", "--config FILE", "--no-config", "-h, --help", "-V, --version",
        ] {
            #expect(help.contains(spelling), "help lacks \(spelling)")
        }
        #expect(!help.split(separator: "\n").contains { $0.count > 100 }, "a help line is wider than 100 columns")
    }

    @Test func listPluginsNeedsNoInput() throws {
        let invocation = try parse(["--list-plugins", "--plugin-dir", "/opt/p"])
        #expect(invocation.action == .listPlugins)
        #expect(invocation.settings.pluginDirectories == ["/opt/p"])
    }

    // MARK: --output

    @Test func outputAcceptsEveryForm() throws {
        #expect(try settings(["--output", "auto", "a"]).output == .auto)
        #expect(try settings(["--output", "pulse", "a"]).output == .pulse)
        #expect(try settings(["--output=alsa", "a"]).output == .alsa(device: nil))
        #expect(try settings(["--output", "alsa:hw:1,0", "a"]).output == .alsa(device: "hw:1,0"))
        #expect(try settings(["-o", "wav:/tmp/out.wav", "a"]).output == .wav(path: "/tmp/out.wav", float: false))
        #expect(try settings(["-owav-float:out.wav", "a"]).output == .wav(path: "out.wav", float: true))
        #expect(try settings(["-o", "null", "a"]).output == .null)
        #expect(try settings(["-o", "pulse", "--output", "null", "a"]).output == .null, "the last one wins")
    }

    @Test func outputRejectsOtherValues() {
        expectUsageError(["--output", "speakers", "a"],
            "motet: --output: 'speakers' is not an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null.")
        expectUsageError(["-o", "Pulse", "a"],
            "motet: -o: 'Pulse' is not an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null; did you mean 'pulse'?")
        expectUsageError(["--output", "wav:", "a"], "motet: --output: 'wav:': a PATH is missing after 'wav:'.")
        expectUsageError(["--output=alsa:", "a"], "motet: --output: 'alsa:': a DEVICE is missing after 'alsa:'.")
        expectUsageError(["a", "--output"],
            "motet: --output: missing value; expected an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null.")
        expectUsageError(["-o", "--shuffle", "a"],
            "motet: -o: missing value; expected an output: auto, pulse, alsa[:DEVICE], wav:PATH, wav-float:PATH or null.")
    }

    // MARK: --untimed

    @Test func untimedWorksWithOfflineOutputs() throws {
        #expect(try settings(["--untimed", "-o", "null", "a"]).untimed)
        #expect(try settings(["-o", "wav:x.wav", "--untimed", "a"]).untimed)
        #expect(try settings(["-o", "wav-float:x.wav", "--untimed=yes", "a"]).untimed)
        #expect(try !settings(["--untimed=no", "a"]).untimed)
    }

    @Test func untimedIsRefusedWithRealTimeOutputs() {
        expectUsageError(["--untimed", "a"],
            "motet: --untimed: only works with --output null, wav:PATH or wav-float:PATH (the output is 'auto').")
        expectUsageError(["--untimed", "-o", "alsa:hw:0", "a"],
            "motet: --untimed: only works with --output null, wav:PATH or wav-float:PATH (the output is 'alsa:hw:0').")
    }

    // MARK: flags

    @Test func flagsAreTrueBareAndTakeYesNoAfterEquals() throws {
        let s = try settings(["--shuffle", "--loop", "--allow-unsafe-plugins", "a"])
        #expect(s.shuffle && s.loop && s.allowUnsafePlugins)
        let t = try settings(["--shuffle=no", "--loop=false", "--allow-unsafe-plugins=0", "a"])
        #expect(!t.shuffle && !t.loop && !t.allowUnsafePlugins)
        #expect(try settings(["--loop=ON", "a"]).loop)
    }

    @Test func flagsRejectOtherValues() {
        expectUsageError(["--shuffle=maybe", "a"], "motet: --shuffle: 'maybe' is not yes or no (also true/false, on/off, 1/0).")
        expectUsageError(["--loop=", "a"], "motet: --loop: '' is not yes or no (also true/false, on/off, 1/0).")
    }

    @Test func aFlagDoesNotSwallowTheNextWord() throws {
        let s = try settings(["--shuffle", "no"])
        #expect(s.shuffle && s.inputs == ["no"])
    }

    // MARK: --start

    @Test func startAcceptsSecondsMinutesAndHours() throws {
        #expect(try settings(["--start", "90", "a"]).start == .seconds(90))
        #expect(try settings(["--start", "1:30", "a"]).start == .seconds(90))
        #expect(try settings(["--start", "01:02:03.5", "a"]).start == .milliseconds(3_723_500))
        #expect(try settings(["--start=0.000001", "a"]).start == .microseconds(1))
        #expect(try settings(["--start", "2.1234569", "a"]).start == .microseconds(2_123_456), "cut to microseconds")
        #expect(try settings(["--start", "125:00", "a"]).start == .seconds(7500), "the first field is unbounded")
        #expect(try settings(["a"]).start == nil)
    }

    @Test func startRejectsMalformedTimes() {
        let tail = "is not a time: SS, MM:SS or HH:MM:SS, each with an optional .fraction (e.g. 90, 1:30, 1:02:03.5)."
        for bad in ["1:60", "abc", "1:2:3:4", "1.", ".5", "1:", "1:30.5.5", "1e3", "10000000000", "1:123"] {
            expectUsageError(["--start", bad, "a"], "motet: --start: '\(bad)' \(tail)")
        }
        expectUsageError(["--start", "-1", "a"], "motet: --start: '-1' \(tail)")
    }

    // MARK: --replaygain, --volume, --skip-limit, --status

    @Test func replayGainModes() throws {
        #expect(try settings(["--replaygain", "album", "a"]).replayGain == .album)
        #expect(try settings(["--replaygain=off", "a"]).replayGain == .off)
        #expect(try settings(["--replaygain", "track", "a"]).replayGain == .track)
        expectUsageError(["--replaygain", "loud", "a"], "motet: --replaygain: 'loud' is not track, album or off.")
    }

    @Test func volumeFromZeroToHundred() throws {
        #expect(try settings(["--volume", "0", "a"]).volume == 0)
        #expect(try settings(["--volume=100", "a"]).volume == 100)
        #expect(try settings(["--volume", "042", "a"]).volume == 42)
        for bad in ["150", "101", "abc", "", "50.5", "1000000000000000000000"] {
            expectUsageError(["--volume=\(bad)", "a"], "motet: --volume: '\(bad)' is not a number from 0 to 100.")
        }
        expectUsageError(["--volume", "-5", "a"], "motet: --volume: '-5' is not a number from 0 to 100.")
        expectUsageError(["a", "--volume"], "motet: --volume: missing value; expected a number from 0 to 100.")
    }

    @Test func skipLimitIsCountPerMinutes() throws {
        #expect(try settings(["--skip-limit", "6/60", "a"]).skipLimit == SkipLimit(count: 6, minutes: 60))
        #expect(try settings(["--skip-limit", "0/1", "a"]).skipLimit == SkipLimit(count: 0, minutes: 1))
        #expect(try settings(["a"]).skipLimit == nil)
        let tail = "is not N/MINUTES: at most N skips (0 or more) in MINUTES minutes (1 or more), e.g. 6/60."
        for bad in ["6", "6/0", "a/b", "6/60/1", "/60", "6/", "-1/60"] {
            expectUsageError(["--skip-limit=\(bad)", "a"], "motet: --skip-limit: '\(bad)' \(tail)")
        }
    }

    @Test func statusModes() throws {
        for mode in [StatusLineSetting.auto, .line, .events, .quiet] {
            #expect(try settings(["--status", mode.rawValue, "a"]).statusLine == mode)
        }
        expectUsageError(["--status", "loud", "a"], "motet: --status: 'loud' is not auto, line, events or quiet.")
    }

    // MARK: paths

    @Test func defaultArtworkIsAPath() throws {
        #expect(try settings(["--default-artwork", "/usr/share/motet/cover.png", "a"]).defaultArtwork == "/usr/share/motet/cover.png")
        expectUsageError(["--default-artwork=", "a"], "motet: --default-artwork: '' is not a path.")
    }

    @Test func pluginDirectoriesAccumulateInOrder() throws {
        #expect(try settings(["--plugin-dir", "/a", "--plugin-dir=/b", "x"]).pluginDirectories == ["/a", "/b"])
        expectUsageError(["--plugin-dir"], "motet: --plugin-dir: missing value; expected a directory.")
    }

    // MARK: plugins and remote commands

    @Test func noPluginsDropsCommandLinePluginsWithAWarning() throws {
        let invocation = try parse(["--plugin", "log", "--no-plugins", "a"])
        #expect(invocation.settings.noPlugins)
        #expect(invocation.settings.plugins.isEmpty)
        #expect(invocation.warnings == ["motet: ignoring --plugin 'log' because --no-plugins is given."])
    }

    @Test func remoteCommandsYesNo() throws {
        #expect(try settings(["a"]).remoteCommands)
        #expect(try !settings(["--remote-commands", "no", "a"]).remoteCommands)
        #expect(try settings(["--remote-commands=yes", "a"]).remoteCommands)
        #expect(try !settings(["--no-remote-commands", "a"]).remoteCommands)
        #expect(try settings(["--no-remote-commands", "--remote-commands", "yes", "a"]).remoteCommands, "the last one wins")
        expectUsageError(["--remote-commands", "a.ogg"],
            "motet: --remote-commands: 'a.ogg' is not yes or no (also true/false, on/off, 1/0).")
    }

    @Test func pauseForCallsIsYesUnlessSaidOtherwise() throws {
        #expect(try settings(["a"]).pauseForCalls)
        #expect(try !settings(["--pause-for-calls", "no", "a"]).pauseForCalls)
        #expect(try settings(["--pause-for-calls=yes", "a"]).pauseForCalls)
        expectUsageError(["--pause-for-calls", "maybe", "a"],
            "motet: --pause-for-calls: 'maybe' is not yes or no (also true/false, on/off, 1/0).")
    }

    // MARK: config selection

    @Test func configAndNoConfigConflict() {
        expectUsageError(["--config", "/x.conf", "--no-config", "a"], "motet: --config and --no-config cannot be used together.")
    }

    @Test func missingExplicitConfigIsAnError() {
        expectUsageError(["--config", "/nonexistent/motet.conf", "a"],
            "motet: --config: cannot read '/nonexistent/motet.conf': no such file or directory. Give a readable file, or --no-config.")
    }

    // MARK: hostile text

    @Test func controlCharactersInValuesAreEscapedInMessages() {
        expectUsageError(["--volume", "1\u{1B}[2J", "a"], "motet: --volume: '1\\x1B[2J' is not a number from 0 to 100.")
        expectUsageError(["--\u{7}bell", "a"], "motet: unknown option '--\\x07bell'. Try 'motet --help'.")
        let long = String(repeating: "9", count: 1000)
        let message = usageError(["--volume", long, "a"])?.description ?? ""
        #expect(message.count < 400 && message.contains("…"))
    }
}
