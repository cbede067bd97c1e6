import Testing

@testable import MotetPlayback

/// The inbox's bounds, its reserved places for quit and stop, and its fairness between sources.
@Suite struct PlayerInboxTests {
    @Test func aFullLaneAnswersBusyAndKeepsItsPlacesForQuitAndStop() {
        let inbox = PlayerInbox()
        let flood = CommandSource.plugin("flood")
        var answers: [CommandAnswer] = []
        for _ in 0..<100 { answers.append(inbox.post(.like, from: flood)) }
        let room = PlayerInbox.laneCapacity - PlayerInbox.reservedForStop
        #expect(answers.prefix(room).allSatisfy { $0 == .accepted })
        #expect(answers.dropFirst(room).allSatisfy { $0 == .busy })
        #expect(inbox.post(.stop, from: flood) == .accepted)
        #expect(inbox.post(.quit, from: flood) == .accepted)
        // Full to the last place: another quit is already waiting, so it is taken as done.
        #expect(inbox.post(.quit, from: flood) == .accepted)
        #expect(inbox.post(.pause, from: flood) == .busy)
    }

    @Test func oneSourcesFloodDoesNotDelayAnothersCommandPastOneTurn() {
        let inbox = PlayerInbox()
        for _ in 0..<40 { _ = inbox.post(.next, from: .plugin("flood")) }
        _ = inbox.post(.pause, from: .user)
        let first = inbox.take()
        let commands = first.messages.compactMap { if case .command(let c, let s, _) = $0 { (c, s) } else { nil } }
        #expect(commands.count == PlayerInbox.perTurn + 1)
        #expect(commands.contains { $0.0 == .pause && $0.1 == .user })
        #expect(first.more)
    }

    @Test func commandsFromOneSourceKeepTheirOrderAcrossTurns() {
        let inbox = PlayerInbox()
        let volumes = (0..<10).map { PlayerCommand.setVolume($0) }
        for v in volumes { _ = inbox.post(v, from: .user) }
        var seen: [PlayerCommand] = []
        var more = true
        while more {
            let taken = inbox.take()
            more = taken.more
            seen += taken.messages.compactMap { if case .command(let c, _, _) = $0 { c } else { nil } }
        }
        #expect(seen == volumes)
    }

    @Test func decoderReportsAreNeverRefusedAndComeFirst() {
        let inbox = PlayerInbox()
        for _ in 0..<70 { _ = inbox.post(.like, from: .user) }
        for i in 0..<100 {
            inbox.post(.openFailed(path: "/music/\(i).ogg", orderPosition: i, error: .empty, listedIn: nil))
        }
        let taken = inbox.take()
        let reports = taken.messages.prefix { if case .decoder = $0 { true } else { false } }
        #expect(reports.count == 100)
    }
}
