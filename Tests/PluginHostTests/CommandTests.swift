import Foundation
import MotetEvents
import MotetPluginHost
import MotetTestSupport
import Testing

/// `send_command` from plugins: thread-safe, in order per thread, refused when remote commands are off.
@Suite struct CommandTests {
    @Test func commandsFromEightThreadsAtOnceArriveEachThreadInOrder() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        let perThread = 500
        #expect(harness.load([harness.probeRequest("probe", options: [("senders", "8"), ("sends", "\(perThread)")])]) == 1)
        #expect(try Shell.waitUntil(timeout: 20) { harness.commands.count == 8 * perThread })
        var sequences: [Int: [Int64]] = [:]
        for (command, instance) in harness.commands {
            #expect(instance == "probe")
            guard case .seekRelative(let value) = command else {
                Issue.record("unexpected command \(command)")
                continue
            }
            sequences[Int(value / 1_000_000), default: []].append(value % 1_000_000)
        }
        #expect(sequences.count == 8)
        for (thread, values) in sequences {
            #expect(values == (0..<Int64(perThread)).map { $0 }, "thread \(thread) out of order")
        }
        #expect(harness.host.shutdown(timeout: .seconds(10)) == [])
        #expect(ProbePlugin.lines(harness.output("probe")).last == "destroy")
    }

    @Test func withRemoteCommandsOffEveryCommandIsRefusedAndNotActedOn() throws {
        let harness = try HostHarness(remoteCommands: false)
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe", options: [("senders", "1"), ("sends", "20")])])
        #expect(harness.host.shutdown(timeout: .seconds(10)) == [])
        #expect(harness.commands.isEmpty)
        let refusals = harness.log.filter { $0.contains("refused: remote commands are off (remote-commands = no)") }
        #expect(refusals.count == 5)  // then quiet, so a plugin cannot flood the log
        #expect(refusals.first == "motet: plugin probe: command seek-relative 0 us refused: remote commands are off (remote-commands = no)")
        #expect(refusals.last?.hasSuffix("(further refusals are not logged)") == true)
    }

    @Test func anUnknownCommandIsAnsweredUnsupported() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe", options: [("send_unknown", "yes")])])
        #expect(try ProbePlugin.waitForLine(harness.output("probe")) { $0 == "answer 999 2" })
        #expect(harness.commands.isEmpty)
    }

    @Test func everyCommandCodeMapsToItsPlayerCommandWithItsArgument() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe", options: [("send_all", "yes")])])
        #expect(harness.commands.map(\.0) == [
            .play, .pause, .toggle, .next, .previous, .stop, .like, .dislike, .unlike,
            .seekRelative(-5_000_000), .seekAbsolute(0), .setVolume(100), .quit,
        ])
        let answers = ProbePlugin.lines(harness.output("probe")).filter { $0.hasPrefix("answer ") }
        #expect(answers == (1...13).map { "answer \($0) 0" })
    }

    @Test func theABI11CommandsMapWithTheirTrackAndStringArgument() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe", options: [("send_11", "yes")])])
        #expect(harness.commands.map(\.0) == [.setLoop(true), .setShuffle(true), .like, .openURI("/music/x.ogg")])
        #expect(harness.commandTracks == [0, 0, 5, 0])
        let answers = ProbePlugin.lines(harness.output("probe")).filter { $0.hasPrefix("answer ") }
        #expect(answers == ["answer 14 0", "answer 15 0", "answer 7 0", "answer 16 0"])
    }

    @Test func aFullQueueIsBusyForABI11PluginsAndRefusedForABI10Ones() throws {
        let harness = try HostHarness(answer: .busy)
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory, fileName: "new.so")
        try ProbePlugin.build(in: harness.directory, fileName: "old.so", abi1_0: true)
        harness.load([
            harness.probeRequest("new", options: [("send_11", "yes")]), harness.probeRequest("old", options: [("send_11", "yes")]),
        ])
        #expect(ProbePlugin.lines(harness.output("new")).filter { $0.hasPrefix("answer ") } == [
            "answer 14 3", "answer 15 3", "answer 7 3", "answer 16 3",
        ])
        #expect(ProbePlugin.lines(harness.output("old")).filter { $0.hasPrefix("answer ") } == ["answer 12 1"])
        #expect(harness.log.contains("motet: plugin old: command set-volume 100 refused: too many commands waiting; try again later"))
    }
}
