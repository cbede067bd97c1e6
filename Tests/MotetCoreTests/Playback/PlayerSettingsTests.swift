import Testing

@testable import MotetPlayback
import MotetSystem

/// Volume, the skip limit, dislikes, and when the machine next needs to look.
@Suite struct PlayerSettingsTests {
    @Test func volumeKeysPressedInQuickSuccessionAllCount() {
        let rig = PlayerRig(volume: 50)
        rig.play(0)
        rig.send(.changeVolume(5), .changeVolume(5), .changeVolume(5))
        #expect(rig.lastState?.volumePercent == 65)
        #expect(rig.engine.volume == 0.65)
        rig.send(.changeVolume(-100))
        #expect(rig.lastState?.volumePercent == 0)
        rig.send(.changeVolume(500), .setVolume(30))
        #expect(rig.lastState?.volumePercent == 30)
    }

    @Test func muteSilencesTheOutputAndKeepsTheVolume() {
        let rig = PlayerRig(volume: 80)
        rig.play(0)
        rig.send(.toggleMute)
        #expect(rig.engine.volume == 0)
        #expect(rig.allDisplays.last?.muted == true)
        #expect(rig.lastState?.volumePercent == 80, "mute is apart from the volume")
        rig.send(.changeVolume(-10))
        #expect(rig.engine.volume == 0, "still muted")
        rig.send(.toggleMute)
        #expect(rig.engine.volume == 0.7)
        #expect(rig.allDisplays.last?.muted == false)
    }

    @Test func shuffleAndLoopKeysToggleAndTheStatusLineIsToldAtOnce() {
        let rig = PlayerRig(tracks: 3)
        rig.play(0)
        rig.send(.toggleLoop)
        #expect(rig.lastState?.loop == true)
        #expect(rig.allDisplays.last?.loop == true)
        rig.send(.toggleShuffle)
        #expect(rig.lastState?.shuffle == true)
        #expect(rig.allDisplays.last?.shuffle == true)
        rig.send(.toggleLoop, .toggleShuffle)
        #expect(rig.lastState?.loop == false && rig.lastState?.shuffle == false)
        #expect(rig.allDisplays.last?.loop == false && rig.allDisplays.last?.shuffle == false)
    }

    @Test func theSkipLimitRefusesSkipsUntilTheWindowMovesOn() {
        let rig = PlayerRig(tracks: 5, skipLimit: (count: 2, minutes: 60))
        rig.play(0)
        rig.send(.next)
        rig.open(1)
        rig.send(.next)
        rig.open(2)
        #expect(rig.nowPlaying?.nextEnabled == false)
        rig.send(.next)
        #expect(rig.engine.repositions.count == 2)
        #expect(rig.allMessages.last?.contains("no skip left (--skip-limit); next one in 60 min") == true)
        // The first skip leaves the window an hour after it was made.
        let deadline = rig.machine.nextDeadline()
        #expect(deadline == rig.now + .seconds(3600))
        rig.advance(micros: 3_600_000_000)
        rig.machine.tick()
        #expect(rig.nowPlaying?.nextEnabled == true)
        rig.send(.next)
        #expect(rig.engine.repositions.count == 3)
    }

    @Test func aRefusedSkipNamesTheWaitInMinutesRoundedUp() {
        let rig = PlayerRig(tracks: 5, skipLimit: (count: 1, minutes: 60))
        rig.play(0)
        rig.send(.next)
        rig.open(1)
        // 60.5 s before the skip leaves the window: the next one is in 2 minutes, not 1.
        rig.advance(micros: 3_539_500_000)
        rig.send(.next)
        #expect(rig.allMessages.last?.contains("next one in 2 min") == true, "\(rig.allMessages.last ?? "")")
        // Exactly a minute before: 1.
        rig.advance(micros: 500_000)
        rig.send(.next)
        #expect(rig.allMessages.last?.contains("next one in 1 min") == true, "\(rig.allMessages.last ?? "")")
    }

    @Test func naturalAdvanceDoesNotCountAsASkip() {
        let rig = PlayerRig(tracks: 4, skipLimit: (count: 1, minutes: 60))
        rig.play(0)
        rig.play(1)
        rig.play(2)
        #expect(rig.nowPlaying?.nextEnabled == true)
    }

    @Test func aDislikeSkipsToTheNextTrack() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.dislike)
        #expect(rig.engine.repositions.last?.position == 1)
        #expect(rig.finished.last?.reason == .skipped)
    }

    @Test func likeAndUnlikeChangeTheFlagsOfTheCurrentTrack() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.like)
        #expect(rig.nowPlaying?.liked == true)
        rig.send(.unlike)
        #expect(rig.nowPlaying?.liked == false && rig.nowPlaying?.disliked == false)
    }

    @Test func nothingIsDueWhilePausedWithoutATerminal() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.pause)
        #expect(rig.machine.nextDeadline() == nil)
    }

    @Test func theStatusLineIsRedrawnWhenTheElapsedSecondChanges() {
        let rig = PlayerRig(displayInterval: .seconds(1))
        rig.play(0)
        let shown = rig.allDisplays.count
        // 1 frame (22 µs) heard: the next second is reached 999,978 µs from now, redrawn 2 ms after.
        let expected = rig.now + .seconds(1) - .microseconds(22) + PlayerStateMachine.displayLate
        #expect(rig.machine.nextDeadline() == expected)
        rig.advance(micros: 500_000)
        rig.hear(22050)
        #expect(rig.allDisplays.count == shown, "no redraw within the same second")
        rig.advance(micros: 500_000)
        rig.hear(22049)
        #expect(rig.allDisplays.count == shown + 1)
        #expect(rig.allDisplays.last?.nowPlaying.elapsedMicros == 1_000_000)
    }

    /// A background job's status line is on no screen: nothing is due for it, nothing is sent,
    /// and when it is shown again the status goes out at once with the elapsed time of now.
    @Test func aHiddenStatusLineIsNotRefreshedAndIsSentAtOnceWhenShownAgain() {
        let rig = PlayerRig(displayInterval: .seconds(1))
        rig.play(0)
        rig.machine.handle(inbox: [.display(shown: false)], output: [])
        let shown = rig.allDisplays.count
        #expect(rig.machine.nextDeadline() == nil, "the control thread would wake for a hidden line")
        rig.advance(micros: 1_500_000)
        rig.hear(66149)  // with the first frame: 1.5 s
        #expect(rig.allDisplays.count == shown, "a hidden line was refreshed")
        rig.machine.handle(inbox: [.display(shown: true)], output: [])
        #expect(rig.allDisplays.count == shown + 1)
        #expect(rig.allDisplays.last?.nowPlaying.elapsedMicros == 1_500_000)
        #expect(rig.machine.nextDeadline() != nil, "the refresh did not come back")
    }

    @Test func aPendingBoundaryIsDueWhenTheOutputWillHaveHeardIt() {
        let rig = PlayerRig()
        rig.play(0)
        let second = rig.open(1)
        rig.write(second, after: 44100)
        // 44100 frames after what has been heard, advancing at 44100 frames/s: 1 s to go.
        #expect(rig.machine.nextDeadline() == rig.now + .seconds(1))
    }
}

/// Feedback that changes nothing.
@Suite struct PlayerFeedbackTests {
    @Test func aLikeOfALikedTrackSendsNothing() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.like)
        rig.clearRecords()
        rig.send(.like, .like, .unlike, .unlike)
        let nowPlayings = rig.allEvents.filter { if case .nowPlaying = $0 { true } else { false } }
        #expect(nowPlayings.count == 1)
        #expect(rig.nowPlaying?.liked == false)
    }

    @Test func aDislikeOfADislikedTrackDoesNotSkipAgain() {
        let rig = PlayerRig(tracks: 4)
        rig.play(0)
        rig.send(.dislike)
        rig.open(1)
        rig.send(.dislike)
        #expect(rig.engine.repositions.map(\.position) == [1, 2])
        rig.open(2)
        rig.send(.like, .dislike)
        #expect(rig.engine.repositions.map(\.position) == [1, 2, 3])
    }
}
