import Foundation
import MotetPluginHost
import MotetTestSupport
import Testing

/// The versioning promise: same major, and the plugin's declared minimum minor not newer than the host's.
@Suite struct VersioningTests {
    @Test func aPluginBuiltAgainstAnOlderOrEqualMinorLoads() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(
            in: harness.directory, fileName: "old.so", defines: ["PROBE_ABI_MINOR=0u", "PROBE_MIN_HOST_MINOR=0u"])
        #expect(harness.load([harness.probeRequest("old")]) == 1)
        #expect(try ProbePlugin.waitForLine(harness.output("old")) { $0.hasPrefix("create abi=1.3 host=motet version=0.0.0-test") })
        #expect(harness.log.isEmpty)
    }

    @Test func aPluginFromANewerMinorThatNeedsNothingNewLoads() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(
            in: harness.directory, fileName: "newer.so", defines: ["PROBE_ABI_MINOR=4u", "PROBE_MIN_HOST_MINOR=0u"])
        #expect(harness.load([harness.probeRequest("newer")]) == 1)
        #expect(harness.log.isEmpty)
    }

    @Test func aPluginThatNeedsANewerHostMinorIsRefusedNamingBothVersions() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(
            in: harness.directory, fileName: "future.so", defines: ["PROBE_ABI_MINOR=5u", "PROBE_MIN_HOST_MINOR=5u"])
        #expect(harness.load([harness.probeRequest("future")]) == 0)
        #expect(harness.log == [
            "motet: plugin future: \(file): needs host ABI 1.5 or newer, but this host has ABI 1.3 (update motet) (from test.conf:7)"
        ])
        #expect(!FileManager.default.fileExists(atPath: harness.output("future")))  // never created
    }

    @Test func aPluginOfAnotherMajorIsRefusedNamingBothVersions() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        // Its entry answers a major-1 host anyway (a buggy plugin): the host must still refuse it.
        let file = try ProbePlugin.build(
            in: harness.directory, fileName: "two.so", defines: ["PROBE_ABI_MAJOR=2u", "PROBE_ABI_MINOR=1u"])
        #expect(harness.load([harness.probeRequest("two")]) == 0)
        #expect(harness.log.count == 1)
        #expect(harness.log.first?.hasPrefix(
            "motet: plugin two: \(file): built for plugin ABI 2.1, but this host has ABI 1.3 (the major versions differ") == true)
    }

    @Test func aSwiftPluginBuiltByAnotherSwiftCompilerIsRefusedInOneLine() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(
            in: harness.directory, fileName: "stale.so", defines: ["PROBE_SWIFT_TOOLCHAIN=\"5.9\""])
        #expect(harness.load([harness.probeRequest("stale")]) == 0)
        #expect(harness.log.count == 1)
        #expect(harness.log.first?.hasPrefix(
            "motet: plugin stale: \(file): refused: built with Swift 5.9, but this motet runs Swift \(PluginHost.swiftToolchain)'s runtime") == true)
        #expect(!FileManager.default.fileExists(atPath: harness.output("stale")))  // never created
    }

    @Test func aSwiftPluginBuiltByTheHostsCompilerLoads() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(
            in: harness.directory, fileName: "fresh.so",
            defines: ["PROBE_SWIFT_TOOLCHAIN=\"\(PluginHost.swiftToolchain)\""])
        #expect(harness.load([harness.probeRequest("fresh")]) == 1)
        #expect(harness.log.isEmpty)
    }

    @Test func aPluginWithThe10BaselineDescriptorIsNotReadPastItsSize() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        // 72 bytes: the stamp that follows is not the plugin's, and must not be read.
        try ProbePlugin.build(
            in: harness.directory, fileName: "baseline.so",
            defines: ["PROBE_STRUCT_SIZE=72u", "PROBE_SWIFT_TOOLCHAIN=\"5.9\""])
        #expect(harness.load([harness.probeRequest("baseline")]) == 1)
        #expect(harness.log.isEmpty)
    }
}
