// swift-tools-version:6.2
// The Swift kit for Motet delegate plugins, as installed by the motet-plugin-dev package (and
// `make install`) in PREFIX/share/motet/swift-kit: the public C header and MotetPluginKit, the same
// sources as in the Motet tree, which builds them with the same settings (Package.swift there).
// A plugin's package depends on it by path:
//     .package(path: "/usr/share/motet/swift-kit"),
//     .product(name: "MotetPluginKit", package: "swift-kit")
import PackageDescription

let package = Package(
    name: "Motet",
    products: [
        .library(name: "MotetPluginKit", targets: ["MotetPluginKit"]),
    ],
    targets: [
        .target(name: "MotetPluginABI"),
        .target(
            name: "MotetPluginKit",
            dependencies: ["MotetPluginABI"],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .unsafeFlags([
                    "-Xfrontend", "-disable-implicit-string-processing-module-import",
                    "-Xfrontend", "-disable-implicit-concurrency-module-import",
                ]),
            ],
            linkerSettings: [
                // Where the motet package keeps the Swift runtime a plugin needs beyond the
                // host's (libswift_Concurrency, libdispatch…): beside the installed plugins, and
                // for a plugin anywhere else.
                .unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "$ORIGIN/../swift", "-Xlinker", "-rpath", "-Xlinker", "/usr/lib/motet/swift"]),
            ]
        ),
    ]
)
