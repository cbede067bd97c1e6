import MotetEvents

/// Everything the player needs to know from the user: the command line laid over the config file.
///
/// Built by ``Options/parse(_:environment:)``. Every field has the default a user gets when neither
/// the command line nor the config file mentions it (see ``init()``).
public struct Settings: Sendable, Equatable {
    /// The positional `FILE|DIR|PLAYLIST` arguments, as given (expand them with ``InputExpander``).
    /// Only the command line gives inputs; the config file cannot.
    public var inputs: [String]
    /// `--output`: where the sound goes. Default ``OutputChoice/auto``.
    public var output: OutputChoice
    /// `--untimed`: decode as fast as possible. Only valid with the `null` and `wav` outputs.
    public var untimed: Bool
    /// `--shuffle`: play the expanded inputs in random order.
    public var shuffle: Bool
    /// `--loop`: start again at the top of the queue after the last track.
    public var loop: Bool
    /// `--start TIME`: where the first track starts.
    public var start: Duration?
    /// `--replaygain track|album|off`. Default ``ReplayGainMode/track``.
    public var replayGain: ReplayGainMode
    /// `--volume 0-100`. Default 100.
    public var volume: Int
    /// `--skip-limit N/MINUTES`: at most N skips in any window of MINUTES minutes; nil = unlimited.
    public var skipLimit: SkipLimit?
    /// `--default-artwork FILE`: the image shown when a track has no picture and no cover file.
    public var defaultArtwork: String?
    /// The plugins to load, in order: the config file's (top-level `plugin =` keys and
    /// `[plugin NAME]` sections, in file order), then the command line's `--plugin` flags.
    /// Empty whenever ``noPlugins`` is true.
    public var plugins: [PluginRequest]
    /// `--plugin-dir DIR` (repeatable): directories searched for plugins given by name, in order.
    /// The command line's directories come first, then the config file's.
    public var pluginDirectories: [String]
    /// `--no-plugins`: load no plugin at all (on the command line this also drops the config file's
    /// plugins; in the config file it drops that file's plugins, and `--plugin` still adds some).
    public var noPlugins: Bool
    /// `--allow-unsafe-plugins`: load plugin files writable by group/others or owned by another
    /// non-root user (refused otherwise).
    public var allowUnsafePlugins: Bool
    /// `--plugin-isolation`: which plugins run in a process of their own. Default
    /// ``PluginIsolation/thirdParty``.
    public var pluginIsolation: PluginIsolation
    /// `--plugin-memory-limit`: the address space each plugin process may use, in MiB; 0 for no
    /// limit. Default ``defaultPluginMemoryLimitMiB``.
    public var pluginMemoryLimitMiB: Int
    /// `--plugin-sandbox`: whether isolated plugins' processes are sandboxed. Default true.
    public var pluginSandbox: Bool
    /// The default of `--plugin-memory-limit` (docs/ISOLATION.md says how it was measured).
    public static let defaultPluginMemoryLimitMiB = 1024
    /// `remote-commands = yes|no` (`--remote-commands`, `--no-remote-commands`). When false, commands
    /// sent by plugins are answered "refused" and not acted on. Default true.
    public var remoteCommands: Bool
    /// `pause-for-calls = yes|no` (`--pause-for-calls`): pause while another stream with
    /// `media.role` phone or communication plays — when the sound server corks us (PulseAudio's
    /// module-role-cork) or, when it does not (PipeWire), because the output sees the call.
    /// Default true.
    public var pauseForCalls: Bool
    /// `skip-disliked = yes|no` (`--skip-disliked`): pass over a track disliked earlier, with one
    /// line, like a radio service's thumbs-down. Default true.
    public var skipDisliked: Bool
    /// `--status auto|line|events|quiet`. Default ``StatusLineSetting/auto``.
    public var statusLine: StatusLineSetting
    /// `--prebuffer TIME`: audio buffered from a URL before playback starts, and again after the
    /// buffer ran dry. Default 1.5 s.
    public var prebuffer: Duration = .milliseconds(1500)
    /// `--reconnect-for TIME`: how long a lost stream is retried before the next entry. Default 60 s.
    public var reconnectFor: Duration = .seconds(60)
    /// `--network-timeout TIME`: to connect, and with nothing arriving. Default 15 s.
    public var networkTimeout: Duration = .seconds(15)
    /// `--crossfade TIME`: how long consecutive tracks overlap; zero (the default) is off. At most
    /// ``maximumCrossfade``.
    public var crossfade: Duration = .zero
    /// The longest `--crossfade`.
    public static let maximumCrossfade: Duration = .seconds(15)
    /// `crossfade-albums = yes|no` (`--crossfade-albums`): crossfade between the tracks of one album
    /// too, which otherwise follow each other gaplessly. Default false.
    public var crossfadeAlbums = false
    /// `--output-rate HZ`: every track resampled to this rate; nil (the default): none is.
    public var outputRate: Int?
    /// The config file actually read, if any.
    public var configFile: String?

    /// The defaults: no inputs, `auto` output, track ReplayGain, volume 100, remote commands on,
    /// automatic status display, nothing else set.
    public init() {
        inputs = []
        output = .auto
        untimed = false
        shuffle = false
        loop = false
        start = nil
        replayGain = .track
        volume = 100
        skipLimit = nil
        defaultArtwork = nil
        plugins = []
        pluginDirectories = []
        noPlugins = false
        allowUnsafePlugins = false
        pluginIsolation = .thirdParty
        pluginMemoryLimitMiB = Self.defaultPluginMemoryLimitMiB
        pluginSandbox = true
        remoteCommands = true
        pauseForCalls = true
        skipDisliked = true
        statusLine = .auto
        configFile = nil
    }
}
