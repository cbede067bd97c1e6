import Testing

@testable import MotetPlayback

/// What the state machine asks of the engine around repositions (README, "Crossfade"): a de-click
/// from where the sound stops, a pause that fades out and goes on where it faded, a manual skip
/// that crossfades and finishes the skipped track in the middle of the fade.
@Suite struct FadeMachineTests {
    static let second = Int64(PlayerRig.rate)

    @Test func aSeekWhilePlayingFadesOutOfWhereTheSoundStops() throws {
        let rig = PlayerRig()
        let first = rig.play(0)
        rig.hear(Self.second)
        rig.send(.seekAbsolute(60_000_000))
        let fade = try #require(rig.engine.fades.last ?? nil)
        #expect(fade.1 == .declick)
        #expect(fade.0.trackID == first.trackID && fade.0.path == "/music/1.ogg")
        #expect(abs(fade.0.position.microseconds - 1_000_000) < 1000, "\(fade.0.position)")
    }

    @Test func nothingFadesWhenNothingSounds() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.pause)
        rig.send(.seekAbsolute(30_000_000))
        #expect(rig.engine.fades.last.map { $0 == nil } == true)
        let radio = PlayerRig(files: ["http://radio.example/live"])
        let info = radio.open(0, stream: .init(station: nil, live: true))
        radio.write(info)
        radio.hear(Self.second)
        radio.send(.stop)
        #expect(radio.engine.fades.last.map { $0 == nil } == true)
    }

    @Test func aPauseFadesOutAndTheTrackGoesOnFromThereAsTheSameTrack() throws {
        let rig = PlayerRig()
        let first = rig.play(0)
        rig.hear(Self.second)
        rig.send(.pause)
        #expect(rig.status == .paused && rig.engine.paused)
        let fade = try #require(rig.engine.fades.last ?? nil)
        #expect(fade.1 == .declickThenPause)
        // The decoder goes on with the same track after the pause point.
        var again = rig.segment(0, startMicros: 1_005_000)
        again.trackID = first.trackID
        rig.machine.handle(inbox: [.decoder(.segmentOpened(again))], output: [])
        rig.send(.play)
        #expect(rig.status == .playing)
        #expect(rig.finished.isEmpty)
        #expect(rig.allEvents.filter { if case .trackStarted = $0 { true } else { false } }.count == 1)
    }

    @Test func aSkipWithCrossfadeFinishesTheSkippedTrackInTheMiddleWithItsWholeFadeHeard() throws {
        let rig = PlayerRig(crossfade: .seconds(5))
        let first = rig.play(0)
        rig.hear(2 * Self.second - 1)  // two seconds heard
        rig.send(.next)
        let fade = try #require(rig.engine.fades.last ?? nil)
        #expect(fade.1 == .crossfade(.seconds(1)))
        #expect(rig.finished.isEmpty && rig.status == .playing)
        // The tail: the skipped track from where it was heard, then the next track from the middle.
        var tail = rig.segment(0, startMicros: 2_000_000)
        tail.trackID = first.trackID
        rig.machine.handle(inbox: [.decoder(.segmentOpened(tail))], output: [])
        rig.write(tail)
        var next = rig.segment(1, startMicros: 500_000)
        next.crossfade = CrossfadeSpan(before: Self.second / 2, after: Self.second / 2, rate: PlayerRig.rate)
        rig.machine.handle(inbox: [.decoder(.segmentOpened(next))], output: [])
        rig.write(next, after: Self.second / 2)
        #expect(rig.finished.isEmpty)
        rig.hear(Self.second / 2 + 1)
        let f = try #require(rig.finished.first)
        #expect(f.trackID == first.trackID && f.reason == .skipped)
        #expect(abs(f.heardMicros - 3_000_000) < 50_000, "heard \(f.heardMicros)")
        #expect(rig.nowPlaying?.track?.title == "Track 2")
    }

    @Test func aSecondNextDuringASkipsCrossfadeCountsFromItsTarget() {
        let rig = PlayerRig(tracks: 4, crossfade: .seconds(3))
        rig.play(0)
        rig.hear(Self.second)
        rig.send(.next)
        rig.send(.next)
        #expect(rig.engine.repositions.map(\.position) == [1, 2])
    }

    @Test func aTrackEndingInACrossfadeCountsItsTailAsHeard() throws {
        let rig = PlayerRig(crossfade: .seconds(4))
        let first = rig.play(0, after: 0)
        var next = rig.segment(1, startMicros: 2_000_000)
        next.crossfade = CrossfadeSpan(before: 2 * Self.second, after: 2 * Self.second, rate: PlayerRig.rate)
        rig.machine.handle(inbox: [.decoder(.segmentOpened(next))], output: [])
        rig.write(next, after: 10 * Self.second)
        rig.hear(10 * Self.second)
        let f = try #require(rig.finished.first)
        #expect(f.trackID == first.trackID && f.reason == .completed)
        #expect(abs(f.heardMicros - 12_000_000) < 50_000, "heard \(f.heardMicros)")
    }
}
