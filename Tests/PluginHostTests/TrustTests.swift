import Foundation
import MotetPluginHost
import MotetTestSupport
import Testing

/// A plugin file or directory that someone else can change is refused, with how to fix it,
/// unless the user explicitly allows it.
@Suite struct TrustTests {
    @Test func aFileWritableByOthersIsRefusedWithTheFix() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory)
        #expect(chmod(file, 0o757) == 0)
        #expect(harness.load([harness.probeRequest("probe")]) == 0)
        #expect(harness.log == [
            "motet: plugin probe: \(file): refused: \(file) is writable by others (mode 0757); fix with: chmod go-w \(file)"
                + " (or allow it with allow-unsafe-plugins = yes / --allow-unsafe-plugins) (from test.conf:7)"
        ])
    }

    @Test func aDirectoryWritableByGroupIsRefusedWithTheFix() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        #expect(chmod(harness.directory, 0o770) == 0)
        #expect(harness.load([harness.probeRequest("probe")]) == 0)
        let line = try #require(harness.log.first)
        #expect(line.contains("refused: directory \(harness.directory) is writable by group (mode 0770)"))
        #expect(line.contains("fix with: chmod go-w \(harness.directory)"))
    }

    @Test func aPluginInAStickyDirectoryForEveryoneIsRefusedWithAdviceToMoveIt() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        // Like /tmp: everyone may add files, the sticky bit keeps them from removing others'.
        let shared = harness.directory + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        #expect(chmod(shared, 0o1777) == 0)
        let file = try ProbePlugin.build(in: shared)
        #expect(harness.load([harness.probeRequest(file, instance: "probe")]) == 0)
        let line = try #require(harness.log.first)
        #expect(line.contains("refused: directory \(shared) lets anyone add files (mode 1777): keep plugins out of it"), "\(line)")
        #expect(line.contains(
            "fix with: mkdir -p ~/.local/share/motet/plugins && mv \(file) ~/.local/share/motet/plugins/ (or allow"), "\(line)")
        #expect(!line.contains("chmod"), "never advise chmod go-w on a shared directory: \(line)")
    }

    @Test func aFileOwnedByAnotherUserIsRefusedWithTheFix() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory)
        // Giving a file away takes root (the test machines run as root).
        guard getuid() == 0 else {
            Issue.record("this test needs root to chown a file to another user")
            return
        }
        #expect(chown(file, 65534, 65534) == 0)
        #expect(harness.load([harness.probeRequest("probe")]) == 0)
        let line = try #require(harness.log.first)
        #expect(line.contains("\(file) is owned by nobody, not by root"))
        #expect(line.contains("fix with: chown root \(file)"))
    }

    @Test func theOverrideLoadsAnUnsafeFileAnyway() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        let file = try ProbePlugin.build(in: harness.directory)
        #expect(chmod(file, 0o777) == 0)
        #expect(chmod(harness.directory, 0o777) == 0)
        #expect(harness.load([harness.probeRequest("probe")], allowUnsafePermissions: true) == 1)
        #expect(harness.log.isEmpty)
        #expect(try ProbePlugin.waitForLine(harness.output("probe")) { $0.hasPrefix("create") })
    }
}
