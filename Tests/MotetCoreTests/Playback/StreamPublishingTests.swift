import Foundation
import MotetTestSupport
import Testing

@testable import MotetPlayback

/// What the surfaces are told about a track that comes over HTTP: its URL instead of a file, the
/// station, no duration and no seeking for a live stream, each song (chained link) its own track,
/// and feedback that rates the song on air without leaving the station.
@Suite struct StreamPublishingTests {
    static let url = "http://127.0.0.1:8000/radio.ogg"
    static let station = StationInfo(name: "Radio Ada", description: "All Ada", genre: "Baroque", homepage: "https://ada.example/")

    private func started(_ rig: PlayerRig) -> [TrackStarted] {
        rig.allEvents.compactMap { if case .trackStarted(let s) = $0 { s } else { nil } }
    }

    @Test func aLiveStreamPublishesItsURLAndStationWithoutFileDurationOrSeeking() throws {
        let rig = PlayerRig(files: [Self.url, "/music/2.ogg"])
        let live = PlayerRig.StreamSegment(station: Self.station, live: true)
        let info = rig.open(0, title: "First song", stream: live)
        rig.write(info)
        rig.hear(1)
        let np = try #require(rig.nowPlaying?.track)
        #expect(np.url == Self.url && np.filePath == nil)
        #expect(np.station == Self.station)
        #expect(np.durationMicros == nil)
        #expect(rig.lastState?.canSeek == false)
        let record = try #require(started(rig).first?.track)
        #expect(record.url == Self.url && record.filePath == nil && record.station == Self.station && record.durationMicros == nil)
    }

    @Test func eachSongOfALiveStreamIsATrackWhoseElapsedCountsFromItsStart() throws {
        let rig = PlayerRig(files: [Self.url])
        let live = PlayerRig.StreamSegment(station: Self.station, live: true)
        let first = rig.open(0, title: "First song", stream: live)
        rig.write(first)
        rig.hear(Int64(PlayerRig.rate) * 10)
        let second = rig.open(0, title: "Second song", stream: live)
        rig.write(second)
        rig.hear(Int64(PlayerRig.rate) * 3)
        #expect(started(rig).map(\.track.title) == ["First song", "Second song"])
        let finished = try #require(rig.finished.first)
        #expect(finished.track?.url == Self.url && finished.filePath == nil)
        #expect(rig.nowPlaying?.track?.title == "Second song")
        let np = rig.machine.nowPlaying()
        #expect(np.track?.title == "Second song" && np.trackID == second.trackID)
        let elapsed = try #require(np.elapsedMicros)
        #expect(abs(elapsed - 3_000_000) < 100_000, "elapsed \(elapsed)")
    }

    @Test func aStationThatSaidNothingAboutItselfHasNoStation() throws {
        let rig = PlayerRig(files: [Self.url])
        rig.write(rig.open(0, stream: .init(station: StationInfo(), live: true)))
        rig.hear(1)
        #expect(rig.nowPlaying?.track?.station == nil)
        #expect(rig.nowPlaying?.track?.url == Self.url)
    }

    @Test func aFiniteFileOverHTTPKeepsItsDurationAndSeeking() throws {
        let rig = PlayerRig(files: ["http://127.0.0.1:8000/song.ogg"])
        rig.write(rig.open(0, stream: .init(station: nil, live: false)))
        rig.hear(1)
        #expect(rig.nowPlaying?.track?.durationMicros == 180_000_000)
        #expect(rig.nowPlaying?.track?.filePath == nil)
        #expect(rig.lastState?.canSeek == true)
    }

    @Test func dislikingTheSongOnAirRatesItByItsTagsAndStaysOnTheStation() throws {
        let dir = try Paths.temporaryDirectory("motet-stream-feedback")
        let rig = PlayerRig(files: [Self.url, "/music/2.ogg"], feedbackDirectory: dir)
        let live = PlayerRig.StreamSegment(station: Self.station, live: true)
        rig.write(rig.open(0, title: "On Air", stream: live))
        rig.hear(1)
        #expect(rig.nowPlaying?.nextEnabled == true)
        rig.send(.dislike)
        #expect(rig.nowPlaying?.disliked == true)
        #expect(rig.engine.repositions.isEmpty, "a dislike left the station: \(rig.engine.repositions)")
        #expect(rig.finished.isEmpty)
        let saved = try String(contentsOfFile: dir + "/feedback", encoding: .utf8)
        #expect(saved.contains("disliked\ttags:on air|artist|album") && !saved.contains(Self.url), "\(saved)")
        // Next still moves to the next entry of the queue.
        rig.send(.next)
        #expect(rig.engine.repositions.last?.position == 1)
    }

    @Test func dislikingAFiniteTrackStillMovesOn() throws {
        let dir = try Paths.temporaryDirectory("motet-stream-feedback")
        let rig = PlayerRig(files: ["http://127.0.0.1:8000/song.ogg", "/music/2.ogg"], feedbackDirectory: dir)
        rig.write(rig.open(0, stream: .init(station: nil, live: false)))
        rig.hear(1)
        rig.send(.dislike)
        #expect(rig.engine.repositions.last?.position == 1)
    }
}
