import Foundation
import MotetEvents
import MotetPluginHost
import MotetTestSupport
import Testing

/// What the player publishes reaches a C plugin field by field, in order, ending with shutdown and destroy.
@Suite struct EventDeliveryTests {
    @Test func everyEventKindArrivesInOrderWithEveryField() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        #expect(harness.load([harness.probeRequest("probe", options: [("color", "blue")])]) == 1)
        let art = Artwork(bytes: [7] + Array(repeating: 0, count: 98) + [9], mime: "image/png", id: "c0ffee", path: "/cache/c0ffee.png")
        harness.host.publish(SampleEvents.track("Song", trackID: 17, artwork: art))
        harness.host.publish(SampleEvents.state(volume: 120, status: .paused))
        harness.host.publish(.trackFinished(TrackFinished(trackID: 17, filePath: "/music/Song.ogg", title: "Song", successfully: false, reason: .failed)))
        harness.host.publish(.decodeError(DecodeErrorReport(code: -3, message: "hole in data", filePath: "/music/Song.ogg", positionMicros: nil, trackID: 17)))
        harness.host.publish(.interruptionBegan(.corked))
        harness.host.publish(.interruptionEnded(.deviceLost))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        #expect(ProbePlugin.lines(harness.output("probe")) == [
            "create abi=1.3 host=motet version=0.0.0-test cache=/tmp/motet-test-artwork options=2",
            "option out=\(harness.output("probe"))",
            "option color=blue",
            "np size=192 present=0xf flags=0x5 title=Song artist=Ada, Bo artists=2:Ada|Bo album=The Album duration=180000000 "
                + "elapsed=1500000 at=42 rate=1.00 art=100:image/png:c0ffee:/cache/c0ffee.png file=/music/Song.ogg track=17",
            "art-bytes 7 9",
            "state state=3 volume=100 shuffle=0 loop=1 seek=1 remote=1",
            "finished ok=0 reason=3 track=17 file=/music/Song.ogg title=Song",
            "finished-track heard=0 position=0 first=-1 id=17 title=Song artist=(null) artists= album=(null) duration=-1 "
                + "file=/music/Song.ogg url=(null) station=(null) art=(null) "
                + "desc=(null) genre=(null) home=(null)",
            "decode-error code=-3 message=hole in data file=/music/Song.ogg position=-1 track=17",
            "interruption-began reason=0",
            "interruption-ended reason=1",
            "shutdown",
            "destroy",
        ])
    }

    @Test func nothingPlayingArrivesWithHasTrackClearAndNoPointers() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe")])
        harness.host.publish(SampleEvents.track("Last"))
        harness.host.publish(.nowPlaying(.nothing(at: 99)))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        let last = try #require(ProbePlugin.lines(harness.output("probe")).last { $0.hasPrefix("np ") })
        #expect(last == "np size=192 present=0x0 flags=0x0 title=(null) artist=(null) artists=0: album=(null) duration=0 "
            + "elapsed=0 at=99 rate=0.00 art=0:(null):(null):(null) file=(null) track=0")
    }

    @Test func aTrackWithoutOptionalFieldsLeavesThemAbsent() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe")])
        let bare = NowPlaying(
            track: TrackInfo(title: nil, artists: [], album: nil, durationMicros: nil, artwork: nil, filePath: nil),
            trackID: 3, elapsedMicros: nil, elapsedAtMicros: 5, rate: 1, liked: false, disliked: true,
            nextEnabled: false, previousEnabled: true)
        harness.host.publish(.nowPlaying(bare))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        #expect(ProbePlugin.lines(harness.output("probe")).contains(
            "np size=192 present=0x1 flags=0xa title=(null) artist=(null) artists=0: album=(null) duration=0 "
                + "elapsed=0 at=5 rate=1.00 art=0:(null):(null):(null) file=(null) track=3"))
    }

    @Test func aStreamArrivesWithItsURLAndEveryStationHeaderAndNoFile() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe")])
        let station = StationInfo(name: "Radio Ada", description: "All Ada, all day", genre: "Baroque", homepage: "https://ada.example/")
        let url = "http://127.0.0.1:8000/radio.ogg"
        harness.host.publish(.nowPlaying(NowPlaying(
            track: TrackInfo(title: "Song", artists: ["Ada"], album: nil, durationMicros: nil, artwork: nil, filePath: nil,
                             url: url, station: station),
            trackID: 4, elapsedMicros: 0, elapsedAtMicros: 5, rate: 1, liked: false, disliked: false,
            nextEnabled: false, previousEnabled: false)))
        let track = TrackRecord(
            trackID: 4, title: "Song", artists: ["Ada"], album: nil, durationMicros: nil, filePath: nil, url: url, station: station)
        harness.host.publish(.trackStarted(TrackStarted(track: track, reason: .natural, startedAtUnixMicros: 1)))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        let lines = ProbePlugin.lines(harness.output("probe"))
        #expect(lines.contains(
            "np-stream url=\(url) station=Radio Ada desc=All Ada, all day genre=Baroque home=https://ada.example/"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("np size=192 present=0x5 ") && $0.contains(" file=(null) ") }, "\(lines)")
        #expect(lines.contains(
            "started reason=0 at=1 id=4 title=Song artist=Ada artists=Ada album=(null) duration=-1 file=(null) "
                + "url=\(url) station=Radio Ada art=(null) desc=All Ada, all day genre=Baroque home=https://ada.example/"),
            "\(lines)")
    }

    @Test func pluginLogLinesArePrefixedAndTheirControlCharactersEscaped() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory)
        harness.load([harness.probeRequest("probe", instance: "probe#2", options: [("hostile_log", "yes")])])
        #expect(harness.log == ["probe#2: warning: red\\x1b[31m alert\\nsecond line\\r\\x7f end"])
    }

    @Test func theABI11EventsCarryTheWholeTrackAndReachOnlyABI11Plugins() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory, fileName: "new.so")
        try ProbePlugin.build(in: harness.directory, fileName: "old.so", abi1_0: true)
        #expect(harness.load([harness.probeRequest("new"), harness.probeRequest("old")]) == 2)
        let track = TrackRecord(
            trackID: 9, title: "Song", artists: ["Ada", "Bo"], album: "The Album", durationMicros: 180_000_000,
            filePath: "/music/Song.ogg", artworkID: "c0ffee")
        harness.host.publish(.trackStarted(TrackStarted(track: track, reason: .previous, startedAtUnixMicros: 1_700_000_000_000_000)))
        harness.host.publish(.seeked(Seeked(trackID: 9, positionMicros: 42_000_000)))
        harness.host.publish(.playbackState(PlaybackState(
            status: .stalled, volumePercent: 50, shuffle: false, loop: false, canSeek: true, remoteCommands: true,
            stalledReason: .deviceLost)))
        harness.host.publish(.trackFinished(TrackFinished(
            trackID: 9, filePath: "/music/Song.ogg", title: "Song", successfully: true, reason: .skipped, track: track,
            heardMicros: 30_000_000, positionMicros: 72_000_000, firstHeardUnixMicros: 1_700_000_000_500_000)))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        let described = "id=9 title=Song artist=Ada, Bo artists=Ada|Bo album=The Album duration=180000000 "
            + "file=/music/Song.ogg url=(null) station=(null) art=c0ffee desc=(null) genre=(null) home=(null)"
        #expect(Array(ProbePlugin.lines(harness.output("new")).dropFirst(2)) == [
            "started reason=2 at=1700000000000000 " + described,
            "seeked track=9 position=42000000",
            "state state=4 volume=50 shuffle=0 loop=0 seek=1 remote=1",
            "finished ok=1 reason=1 track=9 file=/music/Song.ogg title=Song",
            "finished-track heard=30000000 position=72000000 first=1700000000500000 " + described,
            "shutdown", "destroy",
        ])
        #expect(Array(ProbePlugin.lines(harness.output("old")).dropFirst(2)) == [
            "state state=4 volume=50 shuffle=0 loop=0 seek=1 remote=1",
            "finished ok=1 reason=1 track=9 file=/music/Song.ogg title=Song",
            "shutdown", "destroy",
        ])
    }

    /// ABI 1.3: a disabled next comes with the host's reason; an enabled one with none, and a
    /// plugin built against 1.0 gets the same event and reads its own fields as before.
    @Test func aDisabledNextCarriesItsReasonToABI13PluginsOnly() throws {
        let harness = try HostHarness()
        defer { harness.cleanUp() }
        try ProbePlugin.build(in: harness.directory, fileName: "new.so")
        try ProbePlugin.build(in: harness.directory, fileName: "old.so", abi1_0: true)
        #expect(harness.load([harness.probeRequest("new"), harness.probeRequest("old")]) == 2)
        let track = TrackInfo(title: "Song", artists: [], album: nil, durationMicros: 1_000_000, artwork: nil, filePath: "/m/Song.ogg")
        for (id, reason) in [(1, NextDisabledReason.skipLimit), (2, .lastTrack)] {
            harness.host.publish(.nowPlaying(NowPlaying(
                track: track, trackID: UInt64(id), elapsedMicros: 0, elapsedAtMicros: 5, rate: 1, liked: false, disliked: false,
                nextEnabled: false, previousEnabled: false, nextDisabledReason: reason)))
        }
        harness.host.publish(SampleEvents.track("Enabled", trackID: 3))
        #expect(harness.host.shutdown(timeout: .seconds(5)) == [])
        let new = ProbePlugin.lines(harness.output("new"))
        #expect(new.filter { $0.hasPrefix("np-next-disabled ") } == [
            "np-next-disabled no skip left (--skip-limit)", "np-next-disabled there is no next track",
        ], "\(new)")
        let old = ProbePlugin.lines(harness.output("old"))
        #expect(old.filter { $0.hasPrefix("np ") }.count == 3 && !old.contains { $0.hasPrefix("np-next-disabled") }, "\(old)")
    }
}
