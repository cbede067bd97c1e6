import Testing

@testable import MotetPlayback
import MotetSystem

/// Every phase of the state machine against every command (docs/ARCHITECTURE.md, "The state
/// machine"): the status after it is what the transition table says, the status the delegates
/// were told is the one derived from the phase, and nothing else moves.
@Suite struct PhaseCommandTests {
    /// A phase, reached as a user would, on the first of three tracks.
    enum Setup: String, CaseIterable {
        case opening, opened, playing, buffering, deviceLost, paused, pausedWhileOpening, interrupted, stopped, complete

        func make() -> PlayerRig {
            let rig = PlayerRig()
            switch self {
            case .opening: break
            case .opened: rig.open(0)
            case .playing: rig.play(0)
            case .buffering:
                rig.play(0)
                rig.output(.starving(since: rig.now))
                rig.advance(PlayerStateMachine.stall)
                rig.machine.tick()
            case .deviceLost:
                rig.play(0)
                rig.output(.notice(.lost))
            case .paused:
                rig.play(0)
                rig.send(.pause)
            case .pausedWhileOpening:
                rig.play(0)
                rig.send(.pause, .next)
            case .interrupted:
                rig.play(0)
                rig.output(.notice(.corkRequested))
            case .stopped:
                rig.play(0)
                rig.send(.stop)
            case .complete:
                rig.play(0)
                rig.output(.ended)
            }
            return rig
        }

        /// The status the setup reaches.
        var status: PlaybackStatus {
            switch self {
            case .opening, .opened: .loading
            case .playing: .playing
            case .buffering, .deviceLost: .stalled
            case .paused, .pausedWhileOpening: .paused
            case .interrupted: .interrupted
            case .stopped: .stopped
            case .complete: .complete
            }
        }
        var isMoving: Bool { [.opening, .opened, .playing, .buffering, .deviceLost].contains(self) }
        var hasCurrent: Bool { ![.opening, .pausedWhileOpening, .stopped, .complete].contains(self) }
        var currentWasHeard: Bool { [.playing, .buffering, .deviceLost, .paused, .interrupted].contains(self) }
    }

    static let commands: [PlayerCommand] = [
        .play, .pause, .toggle, .next, .previous, .stop, .like, .dislike, .unlike, .seekRelative(10_000_000),
        .seekAbsolute(30_000_000), .setVolume(50), .changeVolume(-5), .quit, .setLoop(true), .setShuffle(true),
        .openURI("/music/extra.ogg"), .toggleShuffle, .toggleLoop, .toggleMute,
    ]

    /// The transition table, written from the rules rather than from what the code does.
    static func expected(_ s: Setup, after command: PlayerCommand) -> PlaybackStatus {
        // The run is over: nothing is taken any more.
        if s == .complete { return .complete }
        func played() -> PlaybackStatus {
            switch s {
            case .paused, .pausedWhileOpening, .interrupted: s.currentWasHeard ? .playing : .loading
            case .stopped: .loading
            default: s.status
            }
        }
        // A skip, seek or restart: what moves loads (still stalled while the device is lost),
        // a paused or interrupted player stays so.
        let repositioned: PlaybackStatus = s.isMoving ? (s == .deviceLost ? .stalled : .loading) : s.status
        switch command {
        case .quit, .stop: return .stopped
        case .pause: return s.isMoving || s == .interrupted ? .paused : s.status
        case .play: return played()
        case .toggle: return s.isMoving ? .paused : played()
        // A stopped player has no track to count from.
        case .next: return s == .stopped ? s.status : repositioned
        // They act on the current track (a dislike skips it); while one opens they wait for it.
        case .previous, .seekRelative, .seekAbsolute, .dislike: return s.hasCurrent ? repositioned : s.status
        // An opened URI plays at once.
        case .openURI: return [.paused, .pausedWhileOpening, .interrupted, .stopped].contains(s) ? .loading : repositioned
        default: return s.status
        }
    }

    @Test(arguments: Setup.allCases)
    func everyCommandInThisPhaseLeadsWhereTheTableSays(_ setup: Setup) {
        #expect(setup.make().status == setup.status, "the setup did not reach \(setup)")
        for command in Self.commands {
            let rig = setup.make()
            rig.send(command)
            let want = Self.expected(setup, after: command)
            #expect(rig.status == want, "\(setup) + \(command.name): \(rig.status.name), not \(want.name)")
            // What the delegates were told is the derived status, with its stall reason.
            #expect(rig.lastState?.status == rig.status, "\(setup) + \(command.name): told \(rig.lastState?.status.name ?? "nothing")")
            #expect(rig.lastState?.stalledReason == rig.machine.phase.stalledReason, "\(setup) + \(command.name)")
            #expect(rig.machine.isFinished == (command == .quit && setup != .complete || setup == .complete))
            // Only a phase that has a track can be opening one.
            if rig.machine.phase.opening != nil { #expect(rig.machine.phase.underway != nil) }
        }
    }

    @Test func aSeekThenASkipBeforeTheSeekOpensAnnouncesNoSeek() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.seekAbsolute(60_000_000), .next)
        rig.open(1)
        #expect(!rig.allEvents.contains { if case .seeked = $0 { true } else { false } })
        #expect(rig.machine.current?.info.orderPosition == 1)
    }

    @Test func commandsKeptForAnOpeningTrackSurviveASecondSkip() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.next, .like, .next)
        rig.open(2)
        #expect(rig.nowPlaying?.liked == true)
        #expect(rig.machine.current?.info.orderPosition == 2)
    }
}
