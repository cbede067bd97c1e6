// swift-tools-version:6.2
// Motet: an Ogg Vorbis player for Linux with delegate plugins. See README.md, and
// docs/ARCHITECTURE.md for how it is built.
import PackageDescription

/// Swift 6 language mode everywhere.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// The player and the delegates leave out the two modules Swift imports implicitly: neither is
/// used, and loading libswift_StringProcessing, libswift_RegexParser, libswift_Concurrency and
/// libdispatch costs 1.6 MiB of resident memory (bench/RESULTS.md). Only the kit's own module is
/// compiled this way: a package that depends on the kit keeps its implicit imports.
let leanFlags: [SwiftSetting] = [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
    ])
]

/// Warnings as errors: our own strictness, for our targets only. The kit (a product other people's
/// packages depend on) does not impose it on their builds; `make release` (and so `make deb`)
/// builds everything with `-warnings-as-errors`, the kit included.
let strict: [SwiftSetting] = swift6 + [.unsafeFlags(["-warnings-as-errors"])]

/// Our strictness and the lean imports: the player and the bundled delegates.
let lean: [SwiftSetting] = strict + leanFlags

/// The kit: Swift 6 mode and lean imports, no warnings-as-errors.
let kit: [SwiftSetting] = swift6 + leanFlags

/// Every delegate built on the kit (ours and other people's) finds the Swift runtime libraries the
/// Debian package keeps privately (`/usr/lib/motet/swift`, PLUGINS.md): beside an installed
/// plugin (`$ORIGIN/../swift`, i.e. in `/usr/lib/motet/plugins`) or from anywhere else.
let kitLinker: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "$ORIGIN/../swift", "-Xlinker", "-rpath", "-Xlinker", "/usr/lib/motet/swift"])
]

/// A bundled delegate exports only `motet_plugin_entry`, and is named by its installed file name
/// (`json.so`, Makefile `install-player`) as its SONAME: without one, the linker records the
/// build directory's path of the file in `.gnu.version_d`, and the package is not reproducible.
func pluginLinker(installedAs name: String) -> [LinkerSetting] {
    [
        .unsafeFlags([
            "-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/plugin-exports.map",
            "-Xlinker", "-soname=\(name).so",
        ])
    ]
}

let package = Package(
    name: "Motet",
    products: [
        .executable(name: "motet", targets: ["motet"]),
        // Bundled delegates: shared objects loaded at run time, written as a third party would.
        .library(name: "motet-log", type: .dynamic, targets: ["LogDelegate"]),
        .library(name: "motet-json", type: .dynamic, targets: ["JSONFileDelegate"]),
        .library(name: "motet-notify", type: .dynamic, targets: ["NotifyDelegate"]),
        .library(name: "motet-mpris", type: .dynamic, targets: ["MPRISDelegate"]),
        .library(name: "motet-web", type: .dynamic, targets: ["WebDelegate"]),
        // The Swift plugin author's kit: a third-party package depends on this product and builds
        // its own `.library(type: .dynamic)` delegate (PLUGINS.md, "Hello world in Swift").
        .library(name: "MotetPluginKit", targets: ["MotetPluginKit"]),
    ],
    targets: [
        // MARK: C libraries (Debian packages) and the public plugin header
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile"),
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile"),
        // Loading a shared library on first use (dlopen): the one loader behind CSoxr, CAudioLibraries
        // and CNetwork.
        .target(name: "CLibraryLoader", linkerSettings: [.linkedLibrary("dl")]),
        // libsoxr: the resampler behind --output-rate (MotetDecoding's Resampler).
        // libsoxr: Debian's headers only; CSoxr loads libsoxr.so.0 when --output-rate is given.
        .target(name: "CSoxr", dependencies: ["CLibraryLoader"]),
        .systemLibrary(name: "CLTDL"),
        // libpulse and alsa-lib: headers only; the functions come through CAudioLibraries, which
        // loads each library only when its output is chosen.
        .systemLibrary(name: "CPulse"),
        .systemLibrary(name: "CALSA"),
        .target(name: "CAudioLibraries", dependencies: ["CLibraryLoader"], exclude: ["list-symbols.sh"]),
        .systemLibrary(name: "CGIO", pkgConfig: "gio-2.0"),
        // GNU libmicrohttpd (the web delegate's HTTP server) through a small shim: the calls
        // Swift cannot make (variadic ones); and libqrencode for the URL as a QR code.
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode"),
        // libcurl: Debian's headers only; CNetwork loads libcurl.so.4 when an input is a URL.
        .target(name: "CNetwork", dependencies: ["CLibraryLoader"]),
        .target(name: "MotetPluginABI", exclude: ["motet-plugin.pc.in"]),
        // The framing between the player and a plugin host process, used by both ends. The host
        // process itself (Sources/motet-plugin-host/main.c) is built by the Makefile with cc, not
        // by SwiftPM, which links libswiftCore into every executable: 3.5 MiB more resident memory
        // in each plugin's process, and a second Swift runtime beside a Swift plugin's own.
        .target(name: "CPluginWire", dependencies: ["MotetPluginABI"]),
        // The host's crash guard around calls into plugins (C: sigsetjmp cannot be used from Swift).
        .target(name: "CPluginGuard", dependencies: ["MotetPluginABI"]),

        // MARK: The engine (one module per concern, all under Sources/MotetCore)
        // What wraps the operating system: threads, locks, clocks, wake-ups, files and paths.
        .target(name: "MotetSystem", path: "Sources/MotetCore/System", swiftSettings: lean),
        // The domain's values: events, commands, now-playing, formats, plugin descriptions.
        .target(name: "MotetEvents", dependencies: ["MotetSystem"], path: "Sources/MotetCore/Events", swiftSettings: lean),
        // The likes store (ratings by track), which playback reads and writes.
        .target(name: "MotetLikes", dependencies: ["MotetSystem"], path: "Sources/MotetCore/Likes", swiftSettings: lean),
        .target(
            name: "MotetNetwork",
            dependencies: [
                "CNetwork",
                "MotetEvents",
                "MotetSystem",
            ],
            path: "Sources/MotetCore/Network",
            swiftSettings: lean
        ),
        .target(
            name: "MotetDecoding",
            dependencies: [
                "CVorbisFile",
                "COpusFile",
                "CSoxr",
                "MotetEvents",
                // DecoderError.network carries the stream's NetworkError as it is.
                "MotetNetwork",
                "MotetSystem",
            ],
            path: "Sources/MotetCore/Decoding",
            swiftSettings: lean
        ),
        .target(
            name: "MotetOutput",
            dependencies: [
                "CPulse",
                "CALSA",
                "CAudioLibraries",
                "MotetEvents",
                "MotetSystem",
            ],
            path: "Sources/MotetCore/Output",
            swiftSettings: lean
        ),
        .target(
            name: "MotetConfiguration",
            dependencies: ["MotetEvents", "MotetNetwork", "MotetSystem"],
            path: "Sources/MotetCore/Configuration",
            swiftSettings: lean
        ),
        .target(
            name: "MotetPluginHost",
            dependencies: [
                "CLTDL",
                "CPluginGuard",
                "CPluginWire",
                "MotetPluginABI",
                "MotetEvents",
                "MotetSystem",
            ],
            path: "Sources/MotetCore/PluginHost",
            swiftSettings: lean
        ),
        .target(
            name: "MotetPlayback",
            dependencies: [
                "MotetEvents",
                "MotetSystem",
                "MotetNetwork",
                "MotetDecoding",
                "MotetOutput",
                "MotetConfiguration",
                "MotetLikes",
            ],
            path: "Sources/MotetCore/Playback",
            swiftSettings: lean
        ),
        .executableTarget(
            name: "motet",
            dependencies: [
                "MotetPlayback",
                "MotetConfiguration",
                "MotetEvents",
                "MotetLikes",
                "MotetSystem",
                "MotetNetwork",
                "MotetOutput",
                "MotetPluginABI",
                "MotetPluginHost",
            ],
            exclude: ["link-as-needed.cfg"],
            swiftSettings: lean,
            // Linked --as-needed: only the libraries it calls. The module maps bring libvorbis and
            // libogg beside libvorbisfile, and the Synchronization module its library, none of
            // which the release build calls (dpkg-shlibdeps warned of them). Through clang's
            // --config, whose options precede the libraries (see the file).
            linkerSettings: [
                .unsafeFlags(["-Xclang-linker", "--config=\(Context.packageDirectory)/Sources/motet/link-as-needed.cfg"])
            ]
        ),

        // MARK: The plugin author's kit and the bundled delegates
        .target(
            name: "MotetPluginKit",
            dependencies: ["MotetPluginABI"],
            swiftSettings: kit,
            linkerSettings: kitLinker
        ),
        .target(
            name: "LogDelegate",
            dependencies: ["MotetPluginKit"],
            path: "Plugins/Log",
            exclude: ["README.md"],
            swiftSettings: lean,
            linkerSettings: pluginLinker(installedAs: "log")
        ),
        // The now-playing state both the json and the web delegates show (one encoding of the
        // state file's schema): a static target, linked into each of their shared objects.
        .target(name: "NowPlayingJSON", dependencies: ["MotetPluginKit"], path: "Plugins/NowPlayingJSON", swiftSettings: lean),
        // A delegate's own thread that waits on a condition and is joined at destroy (the json
        // delegate's refresh timer, the web delegate's broadcaster): static, linked into each.
        .target(name: "WaitingThread", path: "Plugins/WaitingThread", swiftSettings: lean),
        .target(
            name: "JSONFileDelegate",
            dependencies: ["MotetPluginKit", "NowPlayingJSON", "WaitingThread"],
            path: "Plugins/JSONFile",
            exclude: ["schema", "README.md"],
            swiftSettings: lean,
            linkerSettings: pluginLinker(installedAs: "json")
        ),
        // The GVariant helpers both D-Bus delegates use: a static target, linked into each of their
        // shared objects on its own (no type crosses between them; only the entry is exported).
        .target(name: "DBusSupport", dependencies: ["CGIO"], path: "Plugins/DBusSupport", swiftSettings: lean),
        .target(
            name: "NotifyDelegate",
            dependencies: [
                "MotetPluginKit",
                "CGIO",
                "DBusSupport",
            ],
            path: "Plugins/Notify",
            exclude: ["README.md"],
            swiftSettings: lean,
            linkerSettings: pluginLinker(installedAs: "notify")
        ),
        .target(
            name: "MPRISDelegate",
            dependencies: [
                "MotetPluginKit",
                "CGIO",
                "DBusSupport",
            ],
            path: "Plugins/MPRIS",
            exclude: ["README.md"],  // the MPRIS section of PLUGINS.md
            swiftSettings: lean,
            linkerSettings: pluginLinker(installedAs: "mpris")
        ),
        // The web delegate's page, embedded at build time (#embed) from the files beside it.
        .target(name: "WebPage", path: "Plugins/WebPage", exclude: ["index.html", "style.css", "app.js"]),
        .target(
            name: "WebDelegate",
            dependencies: [
                "MotetPluginKit",
                "NowPlayingJSON",
                "WaitingThread",
                "CMicroHTTPD",
                "CQREncode",
                "WebPage",
            ],
            path: "Plugins/Web",
            exclude: ["README.md"],
            swiftSettings: lean,
            linkerSettings: pluginLinker(installedAs: "web")
        ),

        // MARK: Tests (real components; see Tests/MotetTestSupport)
        .target(name: "MotetTestSupport", path: "Tests/MotetTestSupport", swiftSettings: strict),
        .testTarget(
            name: "DecodingTests",
            dependencies: [
                "MotetDecoding",
                "MotetTestSupport",
            ],
            path: "Tests/MotetCoreTests/Decoding",
            swiftSettings: strict
        ),
        .testTarget(
            name: "NetworkTests",
            dependencies: [
                "MotetNetwork",
                "MotetTestSupport",
            ],
            path: "Tests/MotetCoreTests/Network",
            swiftSettings: strict
        ),
        .testTarget(
            name: "OutputTests",
            dependencies: [
                "MotetOutput",
                "MotetTestSupport",
            ],
            path: "Tests/MotetCoreTests/Output",
            swiftSettings: strict
        ),
        .testTarget(
            name: "ConfigurationTests",
            dependencies: [
                "MotetConfiguration",
                "MotetTestSupport",
            ],
            path: "Tests/MotetCoreTests/Configuration",
            swiftSettings: strict
        ),
        .testTarget(
            name: "PlaybackTests",
            dependencies: [
                "MotetPlayback",
                "MotetTestSupport",
            ],
            path: "Tests/MotetCoreTests/Playback",
            swiftSettings: strict
        ),
        .testTarget(
            name: "PluginHostTests",
            dependencies: [
                "CPluginWire",
                "MotetPluginHost",
                "MotetTestSupport",
            ],
            exclude: ["CPlugins"],  // C test plugins, compiled by the tests with cc
            swiftSettings: strict
        ),
        .testTarget(
            name: "TerminalTests",
            dependencies: [
                "motet",
                "MotetPlayback",
                "MotetEvents",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "IntegrationTests", dependencies: ["MotetTestSupport"], swiftSettings: strict),
        .testTarget(name: "DelegateTests", dependencies: ["MotetTestSupport"], swiftSettings: strict),
        .testTarget(name: "MPRISTests", dependencies: ["MotetTestSupport"], swiftSettings: strict),
    ]
)
