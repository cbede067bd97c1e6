import Foundation
import MotetTestSupport
import Testing

/// Ogg Opus through the real player to the WAV output: gapless, bit-exact against libopusfile's
/// own output (a C loop over `op_read_float`), with RFC 7845's gains, and found in directories.
@Suite struct OpusPlaybackTests {
    /// 16-bit little-endian samples' RMS, relative to full scale.
    func rms(_ bytes: [UInt8]) -> Double {
        var sum = 0.0
        var count = 0
        for i in stride(from: 0, to: bytes.count - 1, by: 2) {
            let v = Double(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)) / 32768
            sum += v * v
            count += 1
        }
        return count == 0 ? 0 : (sum / Double(count)).squareRoot()
    }

    func decibels(_ a: Double, over b: Double) -> Double { 20 * log10(a / b) }

    /// An album cut from one continuous signal, each part encoded alone: the parts join with no
    /// frame lost or added, bit-exactly as the reference decodes each file in turn.
    @Test func anAlbumCutFromOneSignalJoinsWithoutAGap() throws {
        let run = try MotetRun()
        let source = run.path("album.wav")
        try Fixtures.wav(source, seconds: 2.5, rate: 48000, synth: ["sine", "100-3000"])
        var files: [String] = []
        var reference: [UInt8] = []
        // Cut points that fall inside Opus frames (20 ms = 960 frames).
        let cuts = [(0, 31_337), (31_337, 50_000), (50_000, 120_000)]
        for (i, cut) in cuts.enumerated() {
            let part = run.path("part\(i).wav"), opus = run.path("part\(i).opus")
            try Shell.check(["sox", source, part, "trim", "\(cut.0)s", "\(cut.1 - cut.0)s"])
            try Fixtures.opus(opus, from: part, tags: Fixtures.Tags(title: "Part \(i)"))
            files.append(opus)
            reference += try Fixtures.opusReferenceDecode(opus).bytes
        }
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events"] + files)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "(ok, completed)").count == 4, "\(r.stdout)")
        let wav = try wavData(out)
        #expect(wav.channels == 2 && wav.rate == 48000 && wav.bits == 16)
        #expect(wav.data.count == 120_000 * 4, "frames: \(wav.data.count / 4), a gap or overlap of \(wav.data.count / 4 - 120_000)")
        if wav.data != reference {
            let first = zip(wav.data, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
            Issue.record("first differing byte at \(first) (frame \(first / 4)) of \(reference.count / 4)")
        }
    }

    /// R128_TRACK_GAIN=-1536 is −6 dB to −23 LUFS, so −1 dB to ReplayGain's −18 LUFS: the track
    /// plays 1 dB below the same file with `--replaygain off`.
    @Test func r128TrackGainPlaysAtTheDocumentedLevel() throws {
        let run = try MotetRun()
        let opus = run.path("loud.opus")
        try Fixtures.opus(opus, seconds: 1, synth: ["pinknoise"], tags: Fixtures.Tags(extra: ["R128_TRACK_GAIN=-1536", "R128_ALBUM_GAIN=-3072"]))
        var levels: [String: Double] = [:]
        for mode in ["off", "track", "album"] {
            let out = run.path("\(mode).wav")
            let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--replaygain", mode, opus])
            #expect(r.status == 0, "\(r.stderr)")
            levels[mode] = rms(try wavData(out).data)
        }
        let off = try #require(levels["off"])
        #expect(abs(decibels(try #require(levels["track"]), over: off) - -1) < 0.01, "\(levels)")
        #expect(abs(decibels(try #require(levels["album"]), over: off) - -7) < 0.01, "\(levels)")
    }

    /// The OpusHead's output gain is part of the stream (RFC 7845 5.1): applied with
    /// `--replaygain off` too, bit-exactly as libopusfile applies it.
    @Test func theHeaderGainAppliesEvenWithReplayGainOff() throws {
        let run = try MotetRun()
        let plain = run.path("plain.opus"), quiet = run.path("quiet.opus")
        try Fixtures.opus(plain, seconds: 1, synth: ["pinknoise"])
        try FileManager.default.copyItem(atPath: plain, toPath: quiet)
        try Fixtures.setOpusHeaderGain(quiet, q8: -6 * 256)
        var levels: [Double] = []
        for file in [plain, quiet] {
            let out = file + ".wav"
            let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--replaygain", "off", file])
            #expect(r.status == 0, "\(r.stderr)")
            let data = try wavData(out).data
            #expect(data == (try Fixtures.opusReferenceDecode(file).bytes))
            levels.append(rms(data))
        }
        #expect(abs(decibels(levels[1], over: levels[0]) - -6) < 0.01, "\(levels)")
    }

    /// `--start` seeks with libopusfile (its pre-roll decoded and dropped): the rest of the file
    /// plays, to the frame.
    @Test func startSeeksToTheFrame() throws {
        let run = try MotetRun()
        let opus = run.path("song.opus")
        try Fixtures.opus(opus, seconds: 1.5, synth: ["pinknoise"], tags: Fixtures.Tags(title: "Seek"))
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", "--start", "0.5", opus])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Seek (ok, completed)"), "\(r.stdout)")
        #expect(try wavData(out).data.count == 48000 * 4)
    }

    /// `.opus` files in a directory play beside `.ogg` ones, titled by their names without `.opus`.
    @Test func opusFilesInADirectoryPlay() throws {
        let run = try MotetRun()
        let dir = run.path("music")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Fixtures.oggVorbis(dir + "/1 first.ogg", seconds: 0.3, tags: Fixtures.Tags(title: "First"))
        try Fixtures.opus(dir + "/2 interview.opus", seconds: 0.3)
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: First (ok, completed)"), "\(r.stdout)")
        #expect(r.stdout.contains("Finished: 2 interview (ok, completed)"), "\(r.stdout)")
    }

    /// A damaged Opus file is one line naming it; the next file plays.
    @Test func aDamagedOpusFileIsOneLineAndPlaybackGoesOn() throws {
        let run = try MotetRun()
        let junk = run.path("junk.opus"), good = run.path("good.opus")
        try Fixtures.foreignOgg(junk, payload: Fixtures.opusHead)
        try Fixtures.opus(good, seconds: 0.5, tags: Fixtures.Tags(title: "Good"))
        let out = run.path("out.wav")
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", junk, good])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("junk.opus") }
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(lines.first?.contains("Ogg Opus") == true && lines.first?.contains(" — ") == true, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Good (ok, completed)"), "\(r.stdout)")
        #expect(try wavData(out).data.count == 24000 * 4)
    }

    /// Ogg Opus headers and no audio after them: one line that says so, not "damaged timestamps".
    @Test func opusHeadersWithoutAudioAreSaidSo() throws {
        let run = try MotetRun()
        let empty = run.path("empty.opus"), good = run.path("good.opus")
        var pages = OggPage.paginate([Fixtures.opusHead], serial: 77, firstSequence: 0, bos: true)
        pages += OggPage.paginate([Fixtures.opusTagsPacket(comments: [])], serial: 77, firstSequence: 1, bos: false)
        pages[pages.count - 1].headerType |= 4
        try Data(pages.flatMap(\.bytes)).write(to: URL(fileURLWithPath: empty))
        try Fixtures.opus(good, seconds: 0.5, tags: Fixtures.Tags(title: "Good"))
        let r = try run.run(["--output", "null", "--untimed", "--no-config", "--status", "events", empty, good])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.split(separator: "\n").filter { $0.contains("empty.opus") }
                == ["motet: \(empty): has Opus headers but no audio with a valid timestamp (granule position) — re-copy or re-encode the file"],
            "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Good (ok, completed)"), "\(r.stdout)")
    }

    /// A huge OpusTags header over hundreds of pages (a 20 MiB picture, a 1 MiB comment): the
    /// picture is refused in one line naming the file, the title shows, the sound is exact.
    @Test func aHugeTagsHeaderIsOneLineAndTheSoundIsExact() throws {
        let run = try MotetRun()
        let f = run.path("huge.opus"), out = run.path("out.wav")
        try Fixtures.opus(f, seconds: 1)
        let picture = Fixtures.pictureBlock(mime: "image/jpeg", data: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x55, count: 20 << 20))
        try Fixtures.replaceComments(f, [
            Array("TITLE=Huge Header".utf8), Array("DESCRIPTION=".utf8) + [UInt8](repeating: 0x78, count: 1 << 20),
            Array("METADATA_BLOCK_PICTURE=".utf8) + Array(Data(picture).base64EncodedString().utf8),
        ])
        let r = try run.run(["--output", "wav:\(out)", "--untimed", "--no-config", "--status", "events", f])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("Finished: Huge Header (ok, completed)"), "\(r.stdout)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("huge.opus") }
        #expect(lines.count == 1 && lines.first?.contains("picture of 20 MiB ignored (limit 16 MiB)") == true, "\(r.stderr)")
        #expect(try wavData(out).data == Fixtures.opusReferenceDecode(f).bytes)
    }
}
