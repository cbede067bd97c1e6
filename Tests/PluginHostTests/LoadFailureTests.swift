import Foundation
import MotetEvents
import MotetSystem
import MotetPluginHost
import MotetTestSupport
import Testing

/// Each way a plugin can fail to load gives one log line naming the plugin, the file and the
/// reason, and the host goes on with the plugins that work.
@Suite struct LoadFailureTests {
    /// Loads `request` plus a good probe, and returns the log lines about `request`'s instance.
    private func failure(
        _ harness: HostHarness, _ request: PluginRequest
    ) throws -> [String] {
        try ProbePlugin.build(in: harness.directory, fileName: "good.so")
        let running = harness.load([request, harness.probeRequest("good")])
        #expect(running == 1)
        // The host keeps working: the good plugin still receives events.
        harness.host.publish(SampleEvents.state(volume: 33))
        #expect(try ProbePlugin.waitForLine(harness.output("good")) { $0.contains("volume=33") })
        return harness.log.filter { $0.hasPrefix("motet: plugin \(request.instanceName):") }
    }

    @Test func aMissingNameNamesTheDirectoriesSearched() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let lines = try failure(harness, harness.probeRequest("nosuch"))
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.contains("not found"))
        #expect(line.contains("nosuch.so or libmotet-nosuch.so"))
        #expect(line.contains(harness.directory))
        #expect(line.contains("/nonexistent/lib/motet/plugins"))
        #expect(line.hasSuffix("(from test.conf:7)"))
    }

    @Test func aMistypedNameGetsASuggestionAndTheNamesThatExist() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory, fileName: "json.so")
        try ProbePlugin.build(in: harness.directory, fileName: "libmotet-log.so")
        let lines = try failure(harness, harness.probeRequest("jsn"))
        let line = try #require(lines.first)
        #expect(line.hasPrefix(
            "motet: plugin jsn: not found (did you mean 'json'?); the plugins found are good, json, log;"
                + " looked for jsn.so or libmotet-jsn.so in: \(harness.directory), "), "\(line)")
        #expect(line.hasSuffix("(from test.conf:7)"))
        // No near name: only the list.
        harness.host.load([harness.probeRequest("zzzzzz")], searchPath: harness.searchPath)
        let far = harness.log.filter { $0.hasPrefix("motet: plugin zzzzzz:") }
        #expect(far.first?.contains("did you mean") == false)
        #expect(far.first?.hasPrefix("motet: plugin zzzzzz: not found; the plugins found are good, json, log; looked for") == true, "\(far)")
    }

    @Test func aFileThatIsNotASharedObjectIsReportedAsSuch() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = harness.directory + "/notes.so"
        try "just some text, not ELF\n".write(toFile: file, atomically: true, encoding: .utf8)
        let lines = try failure(harness, harness.probeRequest("notes"))
        #expect(lines == ["motet: plugin notes: \(file): not a shared object (no ELF header) (from test.conf:7)"])
    }

    @Test func anUnresolvedSymbolIsReportedInsteadOfKillingTheProcess() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(
            in: harness.directory, fileName: "unresolved.so", defines: ["PROBE_UNRESOLVED"], linkStrictly: false)
        let lines = try failure(harness, harness.probeRequest("unresolved"))
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasPrefix("motet: plugin unresolved: \(file): unresolved symbol:"))
        #expect(line.contains("motet_probe_symbol_nobody_defines"))
    }

    @Test func aFileWithoutTheEntryFunctionIsReported() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory, fileName: "noentry.so", defines: ["PROBE_NO_ENTRY"])
        let lines = try failure(harness, harness.probeRequest("noentry"))
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("motet: plugin noentry: \(file): no entry function: the file does not export motet_plugin_entry") == true)
    }

    @Test func aPluginThatDeclinesIsReported() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory, fileName: "shy.so", defines: ["PROBE_DECLINE"])
        let lines = try failure(harness, harness.probeRequest("shy"))
        #expect(lines == ["motet: plugin shy: \(file): declined to load (its motet_plugin_entry returned NULL for host ABI 1.3) (from test.conf:7)"])
    }

    @Test func aPluginWhoseCreateFailsIsReportedAfterItsOwnMessage() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory, fileName: "grumpy.so")
        let lines = try failure(harness, harness.probeRequest("grumpy", options: [("fail_create", "yes")]))
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("motet: plugin grumpy: \(file): create failed") == true)
        let own = harness.log.firstIndex(of: "grumpy: error: probe refuses to start: fail_create=yes")
        let report = harness.log.firstIndex { $0.hasPrefix("motet: plugin grumpy:") }
        #expect(own != nil && report != nil && own! < report!)
    }

    @Test func aMissingExplicitPathIsReported() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let path = harness.directory + "/absent.so"
        let lines = try failure(harness, harness.probeRequest(path, instance: "absent"))
        #expect(lines == ["motet: plugin absent: \(path): no such plugin file (No such file or directory) (from test.conf:7)"])
    }

    @Test func aNameThatCouldEscapeTheSearchPathIsRefused() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let lines = try failure(harness, harness.probeRequest("..", instance: "dots"))
        #expect(lines.count == 1)
        #expect(lines.first?.contains("\"..\" is not a plugin name") == true)
    }

    @Test func severalFailuresInOneLoadEachGiveOneLineAndTheRestRuns() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory, fileName: "a.so")
        try ProbePlugin.build(in: harness.directory, fileName: "shy.so", defines: ["PROBE_DECLINE"])
        let running = harness.load([
            harness.probeRequest("a"), harness.probeRequest("missing"), harness.probeRequest("shy"),
            harness.probeRequest("a", instance: "a#2"),
        ])
        #expect(running == 2)
        #expect(harness.log.count == 2)
        #expect(harness.host.instanceNames == ["a", "a#2"])
    }

    @Test func aSlowCreateDelaysOnlyItsOwnInstanceWhoseEventsWaitForIt() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let start = monotonicMicros()
        harness.host.load([
            harness.probeRequest("probe", instance: "sluggish", options: [("create_sleep_ms", "1500")]),
            harness.probeRequest("probe", instance: "quick"),
        ], searchPath: harness.searchPath)
        #expect(monotonicMicros() - start < 1_000_000, "load waited for create")
        harness.host.publish(SampleEvents.state(volume: 7))
        #expect(try ProbePlugin.waitForLine(harness.output("quick")) { $0.contains("volume=7") })
        let quick = try #require(ProbePlugin.entries(harness.output("quick")).last { $0.text.contains("volume=7") })
        #expect(quick.micros - start < 1_000_000)
        // The slow one gets the event once its create returns, after it.
        #expect(try ProbePlugin.waitForLine(harness.output("sluggish")) { $0.contains("volume=7") })
        let sluggish = ProbePlugin.entries(harness.output("sluggish"))
        let event = try #require(sluggish.first { $0.text.contains("volume=7") })
        #expect(event.micros - start >= 1_500_000)
        #expect(harness.host.waitForCreates(timeout: .seconds(5)) == 2)
        #expect(harness.log.isEmpty)
    }

    @Test func aCreateThatFailsLaterIsReportedAndItsQueuedEventsDropped() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory)
        harness.host.load([
            harness.probeRequest("probe", options: [("create_sleep_ms", "300"), ("fail_create", "yes")]),
        ], searchPath: harness.searchPath)
        harness.host.publish(SampleEvents.state(volume: 7))
        #expect(harness.host.waitForCreates(timeout: .seconds(5)) == 0)
        #expect(harness.log.last == "motet: plugin probe: \(file): create failed (status -1); the plugin's own messages, if any, are above (from test.conf:7)")
        #expect(harness.host.instanceNames == [])
    }
}
