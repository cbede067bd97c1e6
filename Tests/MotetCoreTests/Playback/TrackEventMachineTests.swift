import Testing

@testable import MotetPlayback

/// ABI 1.1 from the state machine: track started with a reason, finished with what was heard,
/// seeked, track-addressed commands, loop and shuffle.
@Suite struct TrackEventMachineTests {
    private func started(_ rig: PlayerRig) -> [TrackStarted] {
        rig.allEvents.compactMap { if case .trackStarted(let s) = $0 { s } else { nil } }
    }

    @Test func eachTrackStartsWithItsReasonAndTheWholeTrack() {
        let rig = PlayerRig()
        rig.play(0)
        let second = rig.open(1)
        rig.write(second, after: 44100)
        rig.hear(44100)
        rig.send(.next)
        rig.open(2)
        rig.send(.previous)
        rig.open(1)
        #expect(started(rig).map(\.reason) == [.natural, .natural, .next, .previous])
        let first = started(rig)[0]
        #expect(first.track.title == "Track 1" && first.track.artists == ["Artist"] && first.track.album == "Album")
        #expect(first.track.filePath == "/music/1.ogg" && first.track.durationMicros == 180_000_000)
        #expect(first.startedAtUnixMicros > 1_700_000_000_000_000)
    }

    @Test func aFinishedTrackSaysWhatWasHeardWhereItGotAndWhenItWasFirstHeard() throws {
        let rig = PlayerRig()
        rig.play(0)
        rig.hear(Int64(PlayerRig.rate) - 1)  // one second heard in all
        rig.send(.seekAbsolute(60_000_000))
        let again = rig.open(0, startMicros: 60_000_000)
        rig.write(again)
        rig.hear(Int64(PlayerRig.rate / 2))  // and half a second after the seek
        rig.send(.next)
        let f = try #require(rig.finished.first)
        #expect(f.reason == .skipped && f.track?.title == "Track 1")
        #expect(abs(f.heardMicros - 1_500_000) < 50_000, "heard \(f.heardMicros)")
        #expect(abs(f.positionMicros - 60_500_000) < 50_000, "position \(f.positionMicros)")
        #expect(f.firstHeardUnixMicros.map { $0 > 1_700_000_000_000_000 } == true)
    }

    @Test func everySeekAskedForIsReportedWithTheNewPosition() {
        let rig = PlayerRig()
        let info = rig.play(0)
        rig.send(.seekAbsolute(30_000_000))
        rig.open(0, startMicros: 30_000_000)
        let seeks = rig.allEvents.compactMap { if case .seeked(let s) = $0 { s } else { nil } }
        #expect(seeks == [Seeked(trackID: info.trackID, positionMicros: 30_000_000)])
    }

    @Test func aCommandForATrackThatIsNoLongerCurrentIsDroppedWhenTheMachineGetsToIt() {
        let rig = PlayerRig()
        let first = rig.play(0)
        rig.send(.next)
        rig.open(1)
        rig.machine.handle(inbox: [.command(.like, .plugin("p"), track: first.trackID)], output: [])
        #expect(rig.nowPlaying?.liked == false)
        #expect(rig.allMessages.contains { $0.contains("like") && $0.contains("no longer current") })
    }

    @Test func loopAndShuffleChangeTheStateTheyReport() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.setLoop(true))
        #expect(rig.lastState?.loop == true)
        #expect(rig.engine.queue.loop)
        rig.send(.setShuffle(true))
        #expect(rig.lastState?.shuffle == true)
    }
}
