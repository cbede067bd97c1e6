import COpusFile
import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// A bad Ogg Opus file gives one clear line that names it, says what is wrong and what to do;
/// what can be played of it is played.
@Suite struct OpusBadInputTests {
    /// The error opening `path` as the player does (`OggDecoding`) throws, or a recorded issue when it opens.
    func openError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> DecoderError? {
        errorOpening(path, with: { (p: String) throws(DecoderError) in _ = try OggDecoding.open(path: p) }, sourceLocation: sourceLocation)
    }

    @Test func onlyAnIdentificationHeaderIsDamagedHeaders() throws {
        let dir = try Scratch()
        let path = dir.file("voice.opus")
        try Fixtures.foreignOgg(path, payload: Fixtures.opusHead)
        let error = openError(path)
        expectClearLine(error, path: path, saying: "holds no complete Ogg Opus stream")
        #expect(error?.code == OP_ENOTFORMAT)
    }

    @Test func junkAfterTheFirstPageIsDamagedHeaders() throws {
        let dir = try Scratch()
        let good = dir.file("good.opus")
        try Fixtures.opus(good, seconds: 0.5)
        let path = dir.file("junk.opus")
        // The first page (OpusHead) is whole; the comment header and audio are noise.
        try Fixtures.damagedCopy(of: good, to: path, offset: 47, count: 100_000)
        expectClearLine(openError(path), path: path, saying: "Opus")
    }

    @Test func truncatedInTheAudioPlaysWhatIsThereThenSaysSo() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.opus")
        // opusenc writes a page a second: cut in the fourth, three play.
        try Fixtures.opus(whole, seconds: 4, synth: ["pinknoise"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: whole)[.size] as? Int)
        let cut = dir.file("cut.opus")
        try Fixtures.truncatedCopy(of: whole, to: cut, bytes: size * 7 / 8)
        let decoded = try DecodedFile.read(cut, opus: true)
        #expect(decoded.frames >= 96000 && decoded.frames < 192_000, "\(decoded.frames)")
        #expect(decoded.failure == .endsEarly)
        expectClearLine(decoded.failure, path: cut, saying: "the file ends early")
    }

    @Test func cutOffBeforeAnyWholeAudioPageEndsEarly() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.opus")
        try Fixtures.opus(whole, seconds: 2, synth: ["pinknoise"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: whole)[.size] as? Int)
        let cut = dir.file("cut.opus")
        try Fixtures.truncatedCopy(of: whole, to: cut, bytes: size / 3)
        expectClearLine(openError(cut), path: cut, saying: "the file ends early")
    }

    @Test func garbageInTheMiddleIsSkippedAndDecodingGoesOn() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.opus")
        try Fixtures.opus(whole, seconds: 3, synth: ["pinknoise"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: whole)[.size] as? Int)
        let damaged = dir.file("damaged.opus")
        try Fixtures.damagedCopy(of: whole, to: damaged, offset: size / 2, count: 3000)
        let decoded = try DecodedFile.read(damaged, opus: true)
        // A hole costs the damaged page (opusenc writes a page a second).
        #expect(decoded.frames >= 72000, "\(decoded.frames)")
        #expect(decoded.failure == nil)
        #expect(decoded.holes.count == 1, "\(decoded.holes)")
        expectClearLine(decoded.holes.first, path: damaged, saying: "was skipped")
    }

    /// A chain of a Vorbis link then an Opus link: the Vorbis plays, then one line names the Opus
    /// link as what it is (not as damage).
    @Test func aChainOfVorbisThenOpusPlaysTheVorbisThenSaysWhy() throws {
        let dir = try Scratch()
        let vorbis = dir.file("a.ogg")
        try Fixtures.oggVorbis(vorbis, seconds: 0.5, serial: 1)
        let opus = dir.file("b.opus")
        try Fixtures.opus(opus, seconds: 0.5, serial: 2)
        let mixed = dir.file("mixed.ogg")
        try Fixtures.chain([vorbis, opus], into: mixed)
        let decoded = try DecodedFile.read(mixed, opus: false)
        #expect(decoded.frames == 22050)
        #expect(decoded.failure == nil)
        #expect(decoded.holes == [.opusLinkSkipped(atMicros: 500_000)], "\(decoded.holes)")
        expectClearLine(decoded.holes.first, path: mixed, saying: "an Ogg Opus link (chained section) at 0:00.500 was skipped")
        #expect(decoded.links.first?.metadata.warnings.first?.hasPrefix("the file chains Ogg Vorbis and Ogg Opus links") == true)
    }

    /// More channels than the WAV, PulseAudio and ALSA orders name (mapping family 255).
    @Test func tenChannelsAreRefusedInOneLine() throws {
        let dir = try Scratch()
        let path = dir.file("ten.opus")
        try Fixtures.opus(path, seconds: 0.2, channels: 10, synth: ["sine", "440"], bitrate: 256)
        let error = openError(path)
        expectClearLine(error, path: path, saying: "at most 8 channels")
    }

    /// A chain whose second link is Vorbis: the Opus link plays, then one line says why the rest
    /// cannot.
    @Test func aChainMixingOpusAndVorbisPlaysTheOpusThenSaysWhy() throws {
        let dir = try Scratch()
        let opus = dir.file("a.opus")
        try Fixtures.opus(opus, seconds: 0.5, serial: 1)
        let vorbis = dir.file("b.ogg")
        try Fixtures.oggVorbis(vorbis, seconds: 0.5, serial: 2)
        let mixed = dir.file("mixed.opus")
        try Fixtures.chain([opus, vorbis], into: mixed)
        let decoded = try DecodedFile.read(mixed, opus: true)
        #expect(decoded.frames == 24000)
        let failure = try #require(decoded.failure)
        expectClearLine(failure, path: mixed, saying: "not Ogg Opus")
    }
}
