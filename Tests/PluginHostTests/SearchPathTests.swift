import Foundation
import MotetPluginHost
import MotetTestSupport
import Testing

/// The documented search order, and `--list-plugins`.
@Suite struct SearchPathTests {
    @Test func directoriesComeInTheDocumentedOrder() {
        let path = PluginSearchPath(
            pluginDirectories: ["/opt/a", "/opt/b/"],
            environment: ["MOTET_PLUGIN_PATH": "/env/one::relative:/env/two", "HOME": "/home/u"],
            executablePath: "/nonexistent/usr/bin/motet")
        #expect(path.directories == [
            "/opt/a", "/opt/b", "/env/one", "/env/two", "/home/u/.local/share/motet/plugins",
            "/nonexistent/usr/lib/motet/plugins",
        ])
        #expect(path.ignored == ["relative (from $MOTET_PLUGIN_PATH: relative directories are not searched)"])
    }

    @Test func xdgDataHomeReplacesTheDefaultUserDirectory() {
        let path = PluginSearchPath(
            pluginDirectories: [], environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"],
            executablePath: "/nonexistent/bin/motet")
        #expect(path.directories.first == "/data/motet/plugins")
    }

    @Test func withoutHOMETheUserDirectoryIsUnderThePasswordDatabasesHome() {
        let path = PluginSearchPath(pluginDirectories: [], environment: [:], executablePath: "/nonexistent/bin/motet")
        let home = getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/"
        #expect(path.entries.first { $0.source == .user }?.directory == (home == "/" ? "" : home) + "/.local/share/motet/plugins")
    }

    @Test func aRelativePluginDirIsResolvedAgainstTheCurrentDirectoryBecauseTheUserGaveIt() {
        let path = PluginSearchPath(pluginDirectories: ["plugins"], environment: [:], executablePath: "/nonexistent/bin/motet")
        let cwd = FileManager.default.currentDirectoryPath
        #expect(path.directories.first == (cwd == "/" ? "/plugins" : cwd + "/plugins"))
    }

    @Test func theFirstDirectoryWinsAndNameDotSoBeatsLibmotetName() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let first = harness.directory + "/first"
        let second = harness.directory + "/second"
        for dir in [first, second] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false) }
        try ProbePlugin.build(in: second, fileName: "probe.so")
        try ProbePlugin.build(in: first, fileName: "libmotet-probe.so")
        try ProbePlugin.build(in: first, fileName: "probe.so", defines: ["PROBE_DECLINE"])
        let path = PluginSearchPath(pluginDirectories: [first, second], environment: [:], executablePath: "/nonexistent/bin/motet")
        #expect(harness.host.load([harness.probeRequest("probe")], searchPath: path) == 0)
        // It took first/probe.so (which declines), not first/libmotet-probe.so nor second/probe.so.
        #expect(harness.log.first?.contains("\(first)/probe.so: declined") == true)
    }

    @Test func aBuildTreeOnlyOffersLibmotetNames() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let bin = harness.directory + "/debug"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: bin + "/motet", contents: Data("#!/bin/sh\n".utf8))
        // What tells a SwiftPM build directory: the executable's object directory beside it.
        try FileManager.default.createDirectory(atPath: bin + "/motet.build", withIntermediateDirectories: false)
        try ProbePlugin.build(in: bin, fileName: "libmotet-probe.so")
        try ProbePlugin.build(in: bin, fileName: "other.so")
        let path = PluginSearchPath(pluginDirectories: [], environment: [:], executablePath: bin + "/motet")
        #expect(path.directories.last == bin)
        #expect(harness.host.load([harness.probeRequest("probe"), harness.probeRequest("other")], searchPath: path) == 1)
        #expect(harness.log.count == 1 && harness.log[0].hasPrefix("motet: plugin other: not found"))
    }

    /// An installed motet (`/usr/bin/motet`, no `motet.build` beside it) does not search its own
    /// directory for plugins.
    @Test func anInstalledExecutablesDirectoryIsNoBuildTree() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let bin = harness.directory + "/usr/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: bin + "/motet", contents: Data("#!/bin/sh\n".utf8))
        try ProbePlugin.build(in: bin, fileName: "libmotet-probe.so")
        let path = PluginSearchPath(pluginDirectories: [], environment: [:], executablePath: bin + "/motet")
        #expect(!path.entries.contains { $0.source == .buildTree }, "\(path.entries)")
        #expect(path.directories.last == harness.directory + "/usr/lib/motet/plugins")
        #expect(harness.host.load([harness.probeRequest("probe")], searchPath: path) == 0)
    }

    @Test func aDirectoryReachedTwoWaysIsSearchedAndListedOnce() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let dir = harness.directory + "/dir"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: harness.directory + "/link", withDestinationPath: "dir")
        try ProbePlugin.build(in: dir)
        // Relative to the harness's directory, given, not made the process's current directory:
        // that is every thread's, and a test running beside this one spawned a process in it
        // just as it was removed (ENOENT for /usr/bin/env, fresh-clone hunt at a8b9df0).
        let path = PluginSearchPath(
            pluginDirectories: ["./dir", "dir/", "link", dir], environment: ["MOTET_PLUGIN_PATH": harness.directory + "/link"],
            executablePath: "/nonexistent/bin/motet", currentDirectory: harness.directory)
        #expect(path.directories.filter { $0.hasPrefix(harness.directory) } == [dir])
        let text = PluginHost.listing(searchPath: path, allowUnsafePermissions: false)
        #expect(text.components(separatedBy: "probe.so").count == 2, "listed once, not as shadowed by itself: \(text)")
        #expect(!text.contains("shadowed"))
    }

    @Test func listingShowsEachPluginOrWhyItCannotLoad() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let a = harness.directory + "/a"
        let b = harness.directory + "/b"
        for dir in [a, b] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false) }
        try ProbePlugin.build(in: a, fileName: "probe.so")
        try ProbePlugin.build(in: b, fileName: "probe.so")
        try ProbePlugin.build(in: a, fileName: "future.so", defines: ["PROBE_MIN_HOST_MINOR=4u"])
        try "text".write(toFile: a + "/broken.so", atomically: true, encoding: .utf8)
        try "not a plugin".write(toFile: a + "/README", atomically: true, encoding: .utf8)
        let path = PluginSearchPath(
            pluginDirectories: [a, b], environment: ["MOTET_PLUGIN_PATH": "rel"], executablePath: "/nonexistent/bin/motet")
        let text = PluginHost.listing(searchPath: path, allowUnsafePermissions: false)
        #expect(text.contains("  1. \(a)  (--plugin-dir)\n  2. \(b)  (--plugin-dir)\n"))
        #expect(text.contains("/nonexistent/lib/motet/plugins  (installed with motet, does not exist)"))
        #expect(text.contains("ignored: rel (from $MOTET_PLUGIN_PATH"))
        #expect(text.contains(
            "  probe  9.8.7  Probe (org.motet.test.probe), ABI 1.3, needs host ABI 1.0+\n"
                + "      Writes every call it receives to a file, for the host's tests\n"
                + "      \(a)/probe.so\n"))
        #expect(text.contains("  broken  cannot load: \(a)/broken.so: not a shared object (no ELF header)\n"))
        #expect(text.contains("  future  cannot load: \(a)/future.so: needs host ABI 1.4 or newer, but this host has ABI 1.3"))
        #expect(text.contains("  probe  shadowed by \(a)/probe.so: \(b)/probe.so\n"))
        #expect(!text.contains("README"))
    }
}
