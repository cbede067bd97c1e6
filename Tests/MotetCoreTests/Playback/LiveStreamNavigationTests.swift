import Testing

@testable import MotetPlayback

/// Previous and seek on a live stream: a station has no start to go back to and no position to
/// seek to, so neither may restart (reconnect) it or end it.
@Suite struct LiveStreamNavigationTests {
    static let stations = ["http://127.0.0.1:8000/one.ogg", "http://127.0.0.1:8000/two.ogg"]
    static let live = PlayerRig.StreamSegment(station: nil, live: true)

    @Test func previousOnTheOnlyStationDoesNothingAndSaysSo() {
        let rig = PlayerRig(files: [Self.stations[0]])
        rig.write(rig.open(0, title: "On Air", stream: Self.live))
        rig.hear(Int64(PlayerRig.rate) * 10)  // past the 3 s after which previous restarts a file
        rig.send(.previous)
        #expect(rig.engine.repositions.isEmpty, "previous restarted the station: \(rig.engine.repositions)")
        #expect(rig.finished.isEmpty)
        #expect(!rig.machine.isFinished)
        #expect(rig.allMessages == ["motet: no previous entry: a live stream cannot go back to the start of the song"])
    }

    @Test func previousOnTheSecondStationGoesBackToTheFirst() {
        let rig = PlayerRig(files: Self.stations)
        rig.write(rig.open(0, stream: Self.live))
        rig.hear(1)
        rig.send(.next)
        rig.write(rig.open(1, stream: Self.live))
        rig.hear(Int64(PlayerRig.rate) * 10)
        rig.send(.previous)
        #expect(rig.engine.repositions.map(\.position) == [1, 0])
        #expect(rig.engine.repositions.last?.reuseTrackID == nil)
    }

    @Test func seekOnALiveStreamSaysItIsALiveStream() {
        let rig = PlayerRig(files: [Self.stations[0]])
        rig.write(rig.open(0, stream: Self.live))
        rig.hear(1)
        rig.send(.seekRelative(5_000_000))
        #expect(rig.engine.repositions.isEmpty)
        #expect(rig.allMessages == ["motet: cannot seek in a live stream (\(Self.stations[0]))"])
    }
}
