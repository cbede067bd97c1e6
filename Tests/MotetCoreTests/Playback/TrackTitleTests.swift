import MotetEvents
import Testing

/// The one rule for the title every surface shows.
@Suite struct TrackTitleTests {
    @Test func theTagWins() {
        #expect(TrackTitle.shown(tag: "Song", filePath: "/m/bgm1.ogg") == "Song")
    }

    @Test func anUntaggedFileIsNamedWithoutItsOggExtension() {
        #expect(TrackTitle.shown(tag: nil, filePath: "/music/bgm1.ogg") == "bgm1")
        #expect(TrackTitle.shown(tag: "", filePath: "/music/bgm1.ogg") == "bgm1", "an empty TITLE counts as none")
        #expect(TrackTitle.shown(tag: nil, filePath: "voice.OGA") == "voice")
        #expect(TrackTitle.shown(tag: nil, filePath: "/talks/interview.opus") == "interview")
        #expect(TrackTitle.shown(tag: nil, filePath: "Podcast.OPUS") == "Podcast")
        #expect(TrackTitle.shown(tag: nil, filePath: "/m/a.b.ogg") == "a.b")
    }

    @Test func otherNamesAreKeptWhole() {
        #expect(TrackTitle.shown(tag: nil, filePath: "/m/track.vorbis") == "track.vorbis")
        #expect(TrackTitle.shown(tag: nil, filePath: "/m/.ogg") == ".ogg")
        #expect(TrackTitle.shown(tag: nil, filePath: "/m/no-extension") == "no-extension")
        #expect(TrackTitle.shown(tag: nil, filePath: nil) == nil)
    }
}
