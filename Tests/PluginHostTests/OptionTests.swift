import Foundation
import MotetEvents
@testable import MotetPluginHost
import MotetTestSupport
import Testing

/// ABI 1.1: a plugin describes its options; the host checks values before create, lists them,
/// and a config section's `library =` can never collide with a plugin option.
@Suite struct OptionTests {
    @discardableResult
    private func described(_ harness: HostHarness) throws -> String {
        try ProbePlugin.build(in: harness.directory, defines: ["PROBE_DESCRIBED_OPTIONS"])
    }

    @Test func aBadValueIsOneLineNamingThePluginTheOptionAndWhatIsAllowed() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try described(harness)
        #expect(harness.load([harness.probeRequest("probe", options: [("interval", "soon")])]) == 0)
        #expect(harness.log == [
            "motet: plugin probe: \(file): option interval: 'soon' is not allowed (a number of seconds >= 0 such as 2 or 0.5) (from test.conf:7)"
        ])
        #expect(!FileManager.default.fileExists(atPath: harness.output("probe")))  // never created
    }

    @Test func anUnknownKeyIsRefusedWhenThePluginDescribesItsOptions() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try described(harness)
        #expect(harness.load([harness.probeRequest("probe", options: [("colour", "blue")])]) == 0)
        #expect(harness.log.count == 1)
        #expect(harness.log.first?.contains("unknown option 'colour' (it has: out, sleep_ms, gate,") == true)
    }

    @Test func aMistypedKeyGetsASuggestion() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try described(harness)
        #expect(harness.load([harness.probeRequest("probe", options: [("intervall", "2")])]) == 0)
        #expect(harness.log.first?.contains("unknown option 'intervall'; did you mean 'interval'? (it has: out,") == true, "\(harness.log)")
    }

    @Test func goodValuesReachCreateInOrderWithRepeats() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try described(harness)
        #expect(harness.load([harness.probeRequest("probe", options: [
            ("sleep_ms", "-0"), ("interval", "0.5"), ("like_each", "on"), ("interval", "2"),
        ])]) == 1, "\(harness.log)")
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        #expect(ProbePlugin.lines(harness.output("probe")).filter { $0.hasPrefix("option ") }.dropFirst() == [
            "option sleep_ms=-0", "option interval=0.5", "option like_each=on", "option interval=2",
        ])
    }

    @Test func pathOptionsHaveTildeExpandedAndOtherKindsAreChecked() {
        #expect(PluginOptionCheck.value("~/x.json", .outputPath, home: "/home/me") == "/home/me/x.json")
        #expect(PluginOptionCheck.value("~", .inputPath, home: "/home/me") == "/home/me")
        #expect(PluginOptionCheck.value("~other/x", .inputPath, home: "/home/me") == "~other/x")
        #expect(PluginOptionCheck.value("~/x", .string, home: "/home/me") == "~/x")
        #expect(PluginOptionCheck.value("", .outputPath, home: "/home/me") == nil)
        #expect(PluginOptionCheck.value("maybe", .bool, home: nil) == nil)
        #expect(PluginOptionCheck.value("Yes", .bool, home: nil) == "Yes")
        #expect(PluginOptionCheck.value("4.5", .integer, home: nil) == nil)
        #expect(PluginOptionCheck.value("-1", .duration, home: nil) == nil)
        #expect(PluginOptionCheck.value("inf", .duration, home: nil) == nil)
    }

    @Test func theListingShowsEachOptionWithItsKindDefaultAndHelp() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try described(harness)
        let text = PluginHost.listing(searchPath: harness.searchPath, allowUnsafePermissions: false)
        #expect(text.contains("      out=output file  where to write one line per call\n"))
        #expect(text.contains("      sleep_ms=integer (default: 0)  sleep this long in every on_event call\n"))
        #expect(text.contains("      interval=seconds (default: 1)  a duration, for the tests of validation\n"))
    }

    @Test func theOldFileKeyLoadsTheFileWithAWarning() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory, fileName: "elsewhere.so")
        var request = harness.probeRequest(file, instance: "mine")
        request.deprecatedFileKey = file
        #expect(harness.load([request]) == 1)
        #expect(harness.log == [
            "motet: plugin mine: 'file =' (test.conf:7) is deprecated; write 'library = \(file)' (then a plugin option may be called file)"
        ])
    }

    @Test func theOldFileKeyIsThePluginsOwnOptionWhenItDeclaresOne() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try described(harness)
        var request = harness.probeRequest("/data/notes.txt", instance: "probe")
        request.deprecatedFileKey = "/data/notes.txt"
        #expect(harness.load([request]) == 1, "\(harness.log)")
        #expect(harness.log.isEmpty)
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        #expect(ProbePlugin.lines(harness.output("probe")).contains("option file=/data/notes.txt"))
    }
}
