import Foundation
import MotetDecoding
import MotetEvents
import MotetTestSupport
import Testing

/// Ogg Opus decodes bit-exactly against libopusfile's own output (a C loop over `op_read_float`
/// with the same float→int16 conversion), link by link, and is chosen by its first packet.
@Suite struct OpusDecodingTests {
    struct Case: Sendable, CustomStringConvertible {
        var channels: Int
        var bitrate: Int
        var encoder: Fixtures.OpusEncoder
        var description: String { "\(channels) ch, \(bitrate) kbit/s, \(encoder)" }
    }

    @Test(arguments: [
        Case(channels: 1, bitrate: 48, encoder: .opusenc),
        Case(channels: 2, bitrate: 32, encoder: .opusenc),
        Case(channels: 2, bitrate: 160, encoder: .opusenc),
        Case(channels: 2, bitrate: 96, encoder: .ffmpeg),
        Case(channels: 6, bitrate: 256, encoder: .opusenc),
        Case(channels: 6, bitrate: 192, encoder: .ffmpeg),
    ])
    func decodesBitExactlyAgainstLibopusfile(_ c: Case) throws {
        let dir = try Scratch()
        let path = dir.file("song.opus")
        try Fixtures.opus(path, seconds: 1, channels: c.channels, bitrate: c.bitrate, encoder: c.encoder)
        let reference = try Fixtures.opusReferenceDecode(path)
        let decoder = try OggDecoding.open(path: path)
        #expect(decoder is OpusDecoder)
        #expect(decoder.format == AudioFormat(sampleRate: 48000, channels: c.channels))
        // Pre-skip and end trimming: exactly the second that was encoded.
        #expect(decoder.totalFrames == 48000)
        #expect(decoder.durationMicros == 1_000_000)
        let decoded = DecodedFile.read(decoder, chunk: 1000)
        #expect(decoded.failure == nil && decoded.holes.isEmpty)
        #expect(decoded.frames == 48000)
        #expect(difference(PCM16.bytes(decoded.allSamples), reference.bytes) == nil)
    }

    /// 5.1 comes out in WAV order: the front left sine stays in the first channel, the LFE's in the
    /// fourth (Opus, like Vorbis, puts the LFE last).
    @Test func fivePointOneIsInWAVOrder() throws {
        let dir = try Scratch()
        let path = dir.file("surround.opus")
        // sox's channels in WAV order: FL FR C LFE BL BR, each its own tone.
        try Fixtures.opus(path, seconds: 0.5, channels: 6, synth: ["sine", "300", "sine", "500", "sine", "700", "sine", "60", "sine", "900", "sine", "1100"], bitrate: 256)
        let all = try DecodedFile.read(OpusDecoder(path: path)).allSamples
        func energy(_ channel: Int, frequency: Double) -> Double {
            let samples = stride(from: channel, to: all.count, by: 6).map { Double(all[$0]) }
            var re = 0.0, im = 0.0
            for (i, s) in samples.enumerated() {
                re += s * cos(2 * .pi * frequency * Double(i) / 48000)
                im += s * sin(2 * .pi * frequency * Double(i) / 48000)
            }
            return (re * re + im * im).squareRoot() / Double(samples.count)
        }
        for (channel, frequency) in [300.0, 500, 700, 60, 900, 1100].enumerated() {
            let others = [300.0, 500, 700, 60, 900, 1100].filter { $0 != frequency }
            #expect(energy(channel, frequency: frequency) > 10 * others.map { energy(channel, frequency: $0) }.max()!, "channel \(channel)")
        }
    }

    @Test func aChainedFileChangesFormatAndTagsAtEachLinkBitExact() throws {
        let dir = try Scratch()
        var parts: [String] = []
        for (i, channels) in [2, 1, 2].enumerated() {
            let part = dir.file("part\(i).opus")
            try Fixtures.opus(
                part, seconds: 0.3 + 0.2 * Double(i), channels: channels, synth: ["sine", "\(300 + 200 * i)"],
                tags: Fixtures.Tags(title: "Link \(i)", artists: ["Artist \(i)"]), serial: 500 + i)
            parts.append(part)
        }
        let chain = dir.file("chain.opus")
        try Fixtures.chain(parts, into: chain)
        let reference = try Fixtures.opusReferenceDecode(chain)
        let decoder = try OggDecoding.open(path: chain)
        #expect(decoder.linkCount == 3)
        #expect(decoder.totalFrames == Int64(14400 + 24000 + 33600))
        let decoded = DecodedFile.read(decoder, chunk: 777)
        #expect(decoded.failure == nil)
        #expect(decoded.links.map(\.metadata.title) == ["Link 0", "Link 1", "Link 2"])
        #expect(decoded.links.map(\.format.channels) == [2, 1, 2])
        #expect(decoded.links.map(\.frames) == [14400, 24000, 33600])
        #expect(decoded.links.map(\.frames) == reference.links.map(\.frames))
        #expect(difference(PCM16.bytes(decoded.allSamples), reference.bytes) == nil)
        #expect(decoded.finalPosition == decoder.durationMicros)

        // A seek into the third link makes it current at once, with its times.
        try decoder.seek(toMicros: 1_000_000)
        #expect(decoder.metadata.title == "Link 2")
        #expect(decoder.linkStartMicros == 800_000)
        #expect(decoder.linkDurationMicros == 700_000)
        #expect(decoder.positionMicros == 1_000_000)
        #expect(DecodedFile.read(decoder).frames == 72000 - 48000)
    }

    @Test func aFileWhoseLastPageLacksEndOfStreamIsBitExact() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.opus")
        try Fixtures.opus(whole, seconds: 1.01, synth: ["pinknoise"])
        let eosless = dir.file("no-eos.opus")
        try Fixtures.withoutEndOfStream(of: whole, to: eosless)
        // Without the flag libopusfile trims nothing: the C loop hands out the last packet's
        // padding too. Motet stops at the last granule position, where the whole file ends.
        let reference = try Fixtures.opusReferenceDecode(eosless)
        let wholeReference = try Fixtures.opusReferenceDecode(whole)
        let decoded = try DecodedFile.read(eosless, opus: true)
        #expect(decoded.failure == nil && decoded.holes.isEmpty)
        #expect(decoded.frames == 48480)
        #expect(difference(PCM16.bytes(decoded.allSamples), wholeReference.bytes) == nil)
        #expect(difference(PCM16.bytes(decoded.allSamples), Array(reference.bytes.prefix(48480 * 4))) == nil)
    }

    @Test func seekingLandsOnTheFrame() throws {
        let dir = try Scratch()
        let path = dir.file("song.opus")
        try Fixtures.opus(path, seconds: 2)
        let decoder = try OpusDecoder(path: path)
        try decoder.seek(toMicros: 1_250_000)
        #expect(decoder.positionMicros == 1_250_000)
        #expect(DecodedFile.read(decoder).frames == 96000 - 60000)
        #expect(throws: DecoderError.startPastEnd(startMicros: 2_000_000, durationMicros: 2_000_000)) {
            try OpusDecoder(path: path).start(atMicros: 2_000_000)
        }
    }

    /// The codec is the first packet's, never the file name's.
    @Test func theCodecIsChosenByTheFirstPacketNotTheName() throws {
        let dir = try Scratch()
        let opusNamedOgg = dir.file("really-opus.ogg")
        try Fixtures.opus(opusNamedOgg, seconds: 0.2)
        let vorbisNamedOpus = dir.file("really-vorbis.opus")
        try Fixtures.oggVorbis(vorbisNamedOpus, seconds: 0.2)
        #expect(try OggDecoding.open(path: opusNamedOgg) is OpusDecoder)
        #expect(try OggDecoding.open(path: vorbisNamedOpus) is VorbisDecoder)
    }

    /// OpusTags are read as Vorbis comments are: text tags, and R128 gains (Q7.8 dB against
    /// −23 LUFS) as ReplayGain gains (+5 dB: ReplayGain's −18 LUFS); REPLAYGAIN_* is ignored.
    @Test func opusTagsGiveTitleArtistsAndR128Gains() throws {
        let dir = try Scratch()
        let path = dir.file("tagged.opus")
        try Fixtures.opus(
            path, seconds: 0.2,
            tags: Fixtures.Tags(
                title: "Voice", artists: ["One", "Two"], album: "Talks",
                extra: ["R128_TRACK_GAIN=-1536", "R128_ALBUM_GAIN=256", "REPLAYGAIN_TRACK_GAIN=-20 dB"]))
        let m = try OggDecoding.open(path: path).metadata
        #expect(m.title == "Voice")
        #expect(m.artists == ["One", "Two"])
        #expect(m.album == "Talks")
        #expect(m.replayGain.trackGain == -1.0)
        #expect(m.replayGain.albumGain == 6.0)
        #expect(m.replayGain.scale(.track) == Float(pow(10, -1.0 / 20)))
    }

    /// Art from OpusTags as from Vorbis comments: the front cover among METADATA_BLOCK_PICTURE
    /// blocks (the R128 rules once swallowed every tag but the text and gain ones).
    @Test func opusTagsGiveTheFrontCover() throws {
        let dir = try Scratch()
        let path = dir.file("art.opus")
        try Fixtures.opus(path, seconds: 0.2)
        let png = MetadataTests.png
        let block = { (type: UInt32, data: [UInt8]) in Array(MetadataTests.pictureComment(type: type, mime: "image/png", data: data).utf8) }
        try Fixtures.replaceComments(path, [Array("TITLE=Art".utf8), block(4, png + [1]), block(3, png)])
        let m = try OggDecoding.open(path: path).metadata
        #expect(m.title == "Art")
        #expect(m.picture?.bytes == png && m.picture?.mime == "image/png", "\(String(describing: m.picture))")
        #expect(m.warnings.isEmpty, "\(m.warnings)")
    }
}

extension DecodedFile {
    /// Opens `path` with `OggDecoding` (the player's choice by first packet) and reads it.
    static func read(_ path: String, opus: Bool, chunk: Int = 4096) throws -> DecodedFile {
        let decoder = try OggDecoding.open(path: path)
        #expect((decoder is OpusDecoder) == opus)
        return read(decoder, chunk: chunk)
    }
}
