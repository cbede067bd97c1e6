import Testing

@testable import MotetPlayback

/// Which pairs crossfade and over how long (README, "Crossfade"): the rule that keeps an album
/// gapless, the short-track rule, and the pairs that cannot overlap.
@Suite struct CrossfadePlanTests {
    static let cd = AudioFormat(sampleRate: 44100, channels: 2)
    static let on = CrossfadeSettings(length: .seconds(5))

    func side(
        _ path: String, album: String? = nil, artists: [String] = ["A"], albumArtist: String? = nil, seconds: Int64 = 180,
        format: AudioFormat = cd, position: Int64 = 0, chained: Bool = false, live: Bool = false
    ) -> CrossfadePlan.Side {
        var m = TrackMetadata(title: path, artists: artists, album: album)
        m.albumArtist = albumArtist
        return CrossfadePlan.Side(
            path: path, format: format, metadata: m, totalFrames: seconds * Int64(format.sampleRate), position: position,
            isChained: chained, isLive: live)
    }

    func plan(_ a: CrossfadePlan.Side, _ b: CrossfadePlan.Side, inOrder: Bool = true, settings: CrossfadeSettings = on) -> CrossfadePlan {
        CrossfadePlan.decide(outgoing: a, incoming: b, inListOrder: inOrder, settings: settings)
    }

    @Test func twoAlbumsCrossfadeOverTheWholeLength() {
        #expect(plan(side("/m/1.ogg", album: "One"), side("/m/2.ogg", album: "Two")) == .crossfade(frames: 5 * 44100))
    }

    @Test func oneAlbumInOrderStaysGaplessUnlessAskedOtherwise() {
        let a = side("/m/1.ogg", album: "One"), b = side("/m/2.ogg", album: "One")
        #expect(plan(a, b) == .gapless)
        #expect(plan(a, b, inOrder: false) == .crossfade(frames: 5 * 44100))
        #expect(plan(a, b, settings: CrossfadeSettings(length: .seconds(5), acrossAlbums: true)) == .crossfade(frames: 5 * 44100))
    }

    @Test func theAlbumArtistDecidesBeforeTheArtists() {
        let a = side("/m/1.ogg", album: "Duets", artists: ["X"], albumArtist: "Various")
        let b = side("/m/2.ogg", album: "Duets", artists: ["Y"], albumArtist: "Various")
        #expect(plan(a, b) == .gapless)
        // Without ALBUMARTIST the artists are compared: two artists' albums of one name are two albums.
        #expect(plan(side("/m/1.ogg", album: "Greatest Hits", artists: ["X"]), side("/m/2.ogg", album: "Greatest Hits", artists: ["Y"])) != .gapless)
    }

    @Test func untaggedTracksAreOneAlbumInOneDirectory() {
        #expect(plan(side("/m/a/1.ogg"), side("/m/a/2.ogg")) == .gapless)
        #expect(plan(side("/m/a/1.ogg"), side("/m/b/2.ogg")) == .crossfade(frames: 5 * 44100))
    }

    @Test func aShortTrackFadesOverHalfOfItself() {
        #expect(plan(side("/m/1.ogg", album: "One"), side("/m/2.ogg", album: "Two", seconds: 6)) == .crossfade(frames: 3 * 44100))
        #expect(plan(side("/m/1.ogg", album: "One", seconds: 4), side("/m/2.ogg", album: "Two")) == .crossfade(frames: 2 * 44100))
    }

    @Test func aFadeNeverReachesBackPastWhereTheOutgoingTrackIs() {
        let late = side("/m/1.ogg", album: "One", position: 180 * 44100 - 1000)
        #expect(plan(late, side("/m/2.ogg", album: "Two")) == .crossfade(frames: 1000))
    }

    @Test func differentRatesFadeOutThenIn() {
        let dat = AudioFormat(sampleRate: 48000, channels: 2)
        #expect(plan(side("/m/1.ogg", album: "One"), side("/m/2.ogg", album: "Two", format: dat)) == .fadeOutIn(out: 5 * 44100, in: 5 * 48000))
    }

    @Test func liveChainedAndUnmeasuredTracksAreNotCrossfaded() {
        let a = side("/m/1.ogg", album: "One")
        #expect(plan(a, side("http://radio/x", album: "Two", live: true)) == .gapless)
        #expect(plan(a, side("/m/2.ogg", album: "Two", chained: true)) == .gapless)
        var unmeasured = side("/m/2.ogg", album: "Two")
        unmeasured.totalFrames = nil
        #expect(plan(a, unmeasured) == .gapless)
        #expect(plan(a, side("/m/2.ogg", album: "Two"), settings: CrossfadeSettings()) == .gapless)
    }
}
