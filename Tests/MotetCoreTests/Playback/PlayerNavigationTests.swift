import Testing

@testable import MotetPlayback
import MotetSystem

/// Next, previous, seek and stop, playing and paused; the end of the queue and `--loop`.
@Suite struct PlayerNavigationTests {
    @Test func aTrackIsCurrentOnceItsFirstFrameIsHeard() {
        let rig = PlayerRig()
        let info = rig.open(0)
        #expect(rig.status == .loading)
        rig.write(info)
        rig.hear(1)
        #expect(rig.status == .playing)
        #expect(rig.nowPlaying?.track?.title == "Track 1")
        #expect(rig.nowPlaying?.rate == 1)
        #expect(rig.machine.outcome.playedAnything)
    }

    @Test func theNextTrackDecodedAheadBecomesCurrentOnlyWhenHeard() {
        let rig = PlayerRig()
        rig.play(0)
        let second = rig.open(1)
        rig.write(second, after: 44100)
        #expect(rig.nowPlaying?.track?.title == "Track 1")
        rig.hear(44098)
        #expect(rig.nowPlaying?.track?.title == "Track 1")
        rig.hear(2)
        #expect(rig.nowPlaying?.track?.title == "Track 2")
        #expect(rig.finished.map(\.reason) == [.completed])
    }

    @Test func nextWhilePausedMakesTheNewTrackCurrentAtOncePaused() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.pause)
        rig.send(.next)
        #expect(rig.finished.map(\.reason) == [.skipped])
        #expect(rig.engine.repositions.last == .init(position: 1, start: .zero, reuseTrackID: nil, hold: false))
        rig.open(1)
        // Nothing of it has been heard, and it is current, paused, on every surface.
        #expect(rig.status == .paused)
        #expect(rig.nowPlaying?.track?.title == "Track 2")
        #expect(rig.nowPlaying?.rate == 0)
        #expect(rig.nowPlaying?.elapsedMicros == 0)
        #expect(rig.lastState?.status == .paused)
        #expect(rig.engine.paused)
    }

    @Test func pauseNextLikePlayLikesTheNewTrackAndPlaysIt() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.pause, .next)
        let second = rig.open(1)
        rig.send(.like)
        #expect(rig.nowPlaying?.track?.title == "Track 2")
        #expect(rig.nowPlaying?.liked == true)
        rig.send(.play)
        #expect(!rig.engine.paused)
        rig.write(second)
        rig.hear(1)
        #expect(rig.status == .playing)
        #expect(rig.nowPlaying?.track?.title == "Track 2")
        #expect(rig.nowPlaying?.liked == true)
    }

    @Test func aLikeSentBeforeTheSkippedToTrackIsOpenAppliesToIt() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.next, .like)
        rig.open(1)
        #expect(rig.nowPlaying?.track?.title == "Track 2")
        #expect(rig.nowPlaying?.liked == true)
    }

    @Test func seekWhilePausedShowsTheNewPositionAtOncePaused() {
        let rig = PlayerRig()
        let first = rig.play(0)
        rig.send(.pause, .seekAbsolute(60_000_000))
        #expect(rig.engine.repositions.last == .init(position: 0, start: .microseconds(60_000_000), reuseTrackID: first.trackID, hold: false))
        #expect(rig.nowPlaying?.elapsedMicros == 60_000_000)
        rig.open(0, startMicros: 60_000_000)
        #expect(rig.status == .paused)
        #expect(rig.nowPlaying?.trackID == first.trackID)
        #expect(rig.nowPlaying?.elapsedMicros == 60_000_000)
        #expect(rig.finished.isEmpty)
    }

    @Test func twoNextsBeforeTheFirstIsOpenSkipTwoTracks() {
        let rig = PlayerRig(tracks: 4)
        rig.play(0)
        rig.send(.next, .next)
        #expect(rig.engine.repositions.map(\.position) == [1, 2])
    }

    @Test func previousWithinThreeSecondsGoesToThePreviousTrack() {
        let rig = PlayerRig()
        rig.play(0)
        rig.play(1, after: 0)
        rig.hear(Int64(PlayerRig.rate) * 2)
        rig.send(.previous)
        #expect(rig.engine.repositions.last?.position == 0)
        #expect(rig.finished.last?.reason == .skipped)
    }

    @Test func previousAfterThreeSecondsRestartsTheTrack() {
        let rig = PlayerRig()
        rig.play(0)
        let second = rig.play(1)
        rig.hear(Int64(PlayerRig.rate) * 4)
        rig.send(.previous)
        #expect(rig.engine.repositions.last == .init(position: 1, start: .zero, reuseTrackID: second.trackID, hold: false))
        #expect(rig.finished.count == 1)  // only track 1's natural end
    }

    @Test func stopThenPlayStartsTheSameTrackAgainAsANewTrack() {
        let rig = PlayerRig()
        rig.play(0)
        let second = rig.play(1)
        rig.send(.stop)
        #expect(rig.status == .stopped)
        #expect(rig.nowPlaying?.track == nil)
        #expect(rig.finished.last?.reason == .stopped)
        #expect(rig.engine.repositions.last == .init(position: 1, start: .zero, reuseTrackID: nil, hold: true))
        rig.send(.play)
        #expect(rig.engine.released == 1)
        #expect(rig.status == .loading)
        let again = rig.play(1)
        #expect(again.trackID != second.trackID)
        #expect(rig.status == .playing)
    }

    @Test func commandsForTheTrackAreIgnoredWhileStopped() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.stop, .like, .seekAbsolute(5_000_000), .next)
        #expect(rig.engine.repositions.count == 1)
        rig.send(.play)
        rig.play(0)
        #expect(rig.nowPlaying?.liked == false)
    }

    @Test func theEndOfTheQueueFinishesTheLastTrackAndCompletes() {
        let rig = PlayerRig(tracks: 2)
        rig.play(0)
        let last = rig.open(1)
        rig.write(last, after: 1000)
        rig.output(.ended)
        #expect(rig.finished.map(\.title) == ["Track 1", "Track 2"])
        #expect(rig.status == .complete)
        #expect(rig.nowPlaying?.track == nil)
        #expect(rig.machine.isFinished)
    }

    @Test func nextIsDisabledOnTheLastTrackUnlessLooping() {
        let plain = PlayerRig(tracks: 2)
        plain.play(0)
        plain.play(1)
        #expect(plain.nowPlaying?.nextEnabled == false)
        plain.send(.next)
        #expect(plain.allMessages.contains("motet: no next track"))
        #expect(plain.engine.repositions.isEmpty)

        let looping = PlayerRig(tracks: 2, loop: true)
        looping.play(0)
        looping.play(1)
        #expect(looping.nowPlaying?.nextEnabled == true)
        looping.send(.next)
        #expect(looping.engine.repositions.last?.position == 0)
        #expect(looping.lastState?.loop == true)
    }

    @Test func previousOnTheFirstTrackWrapsOnlyWhenLooping() {
        let looping = PlayerRig(tracks: 3, loop: true)
        looping.play(0)
        looping.send(.previous)
        #expect(looping.engine.repositions.last?.position == 2)
        let plain = PlayerRig(tracks: 3)
        plain.play(0)
        plain.send(.previous)
        #expect(plain.engine.repositions.last?.position == 0)
    }

    @Test func seekingPastTheEndSkipsToTheNextTrack() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.seekAbsolute(500_000_000))
        #expect(rig.engine.repositions.last?.position == 1)
        #expect(rig.finished.last?.reason == .skipped)
    }

    @Test func aStaleSegmentFromBeforeASkipIsIgnored() {
        let rig = PlayerRig()
        rig.play(0)
        let stale = SegmentInfo(
            segmentID: 99, generation: rig.engine.generation, trackID: 99, orderPosition: 1, path: "/music/2.ogg",
            metadata: TrackMetadata(title: "stale"), artwork: nil, format: AudioFormat(sampleRate: 44100, channels: 2),
            fileStart: .zero, duration: nil, canSeek: true)
        rig.send(.next)
        rig.machine.handle(inbox: [.decoder(.segmentOpened(stale))], output: [])
        #expect(rig.nowPlaying?.track?.title != "stale")
        rig.open(1)
        #expect(rig.nowPlaying?.track?.title == "Track 2")
    }
}
