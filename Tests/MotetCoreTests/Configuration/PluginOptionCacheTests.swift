import Foundation
import MotetConfiguration
import MotetEvents
import Testing
import MotetSystem

/// The cache of plugin options that `--list-plugins` writes and shell completion reads.
@Suite struct PluginOptionCacheTests {
    private func scratch() -> String {
        NSTemporaryDirectory() + "motet-option-cache-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func theCacheLivesUnderTheXDGCacheDirectory() {
        let directories = XDGDirectories(environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "/c"])
        #expect(PluginOptionCache.path(directories) == "/c/motet/plugin-options")
        #expect(PluginOptionCache.path(XDGDirectories(environment: ["HOME": "/home/u"])) == "/home/u/.cache/motet/plugin-options")
    }

    @Test func writtenOptionsReadBackPerPluginInOrderOneLineEach() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/cache/motet/plugin-options"
        let options = [
            DescribedPluginOption(plugin: "json", key: "path", kind: .outputPath),
            DescribedPluginOption(plugin: "log", key: "level", kind: .string),
            DescribedPluginOption(plugin: "json", key: "interval", kind: .duration),
            DescribedPluginOption(plugin: "json", key: "bad\tkey", kind: .bool),
        ]
        #expect(PluginOptionCache.write(options, to: path) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "json\tpath\toutput-path\nlog\tlevel\tstring\njson\tinterval\tduration\n")
        #expect(PluginOptionCache.options(of: "json", in: path) == [options[0], options[2]])
        #expect(PluginOptionCache.options(of: "log", in: path) == [options[1]])
        #expect(PluginOptionCache.options(of: "notify", in: path).isEmpty)

        // Replaced whole, and no temporary file is left beside it.
        #expect(PluginOptionCache.write([options[1]], to: path) == nil)
        #expect(PluginOptionCache.options(of: "json", in: path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/cache/motet") == ["plugin-options"])
    }

    @Test func noCacheOrAMangledLineOffersNothingForIt() throws {
        let root = scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(PluginOptionCache.options(of: "json", in: root + "/none").isEmpty)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "json\n\tpath\tstring\njson\tevents\tfrom-the-future\njson\tpath\n".write(
            toFile: root + "/c", atomically: true, encoding: .utf8)
        #expect(PluginOptionCache.options(of: "json", in: root + "/c") == [DescribedPluginOption(plugin: "json", key: "events", kind: .string)])
    }

    @Test func aCacheThatCannotBeWrittenSaysWhy() {
        let problem = PluginOptionCache.write([], to: "/proc/motet-cannot/plugin-options")
        #expect(problem?.hasPrefix("cannot create /proc/motet-cannot") == true, "\(problem ?? "nil")")
    }
}
