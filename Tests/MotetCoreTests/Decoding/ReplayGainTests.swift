import MotetDecoding
import Testing

/// The linear scale the player applies for `--replaygain`.
@Suite struct ReplayGainTests {
    @Test func offAndAbsentTagsAreUnity() {
        let tags = ReplayGainTags(trackGain: -10, trackPeak: 0.5, albumGain: -3, albumPeak: 0.8)
        #expect(tags.scale(.off) == 1)
        #expect(ReplayGainTags().scale(.track) == 1)
        #expect(ReplayGainTags().scale(.album) == 1)
    }

    @Test func trackAndAlbumGainsAreApplied() {
        let tags = ReplayGainTags(trackGain: -6.0206, trackPeak: 0.5, albumGain: -20, albumPeak: 0.9)
        #expect(abs(tags.scale(.track) - 0.5) < 1e-4)
        #expect(abs(tags.scale(.album) - 0.1) < 1e-5)
    }

    @Test func peakPreventsClipping() {
        let tags = ReplayGainTags(trackGain: 12, trackPeak: 0.8)
        let scale = tags.scale(.track)
        #expect(abs(scale - 1.25) < 1e-6)
        #expect(scale * 0.8 <= 1.0001)
        // Without a peak the gain applies as is.
        #expect(abs(ReplayGainTags(trackGain: 6.0206).scale(.track) - 2) < 1e-3)
    }

    @Test func missingModeFallsBackToTheOtherGain() {
        #expect(abs(ReplayGainTags(albumGain: -6.0206).scale(.track) - 0.5) < 1e-4)
        #expect(abs(ReplayGainTags(trackGain: -6.0206).scale(.album) - 0.5) < 1e-4)
    }
}
