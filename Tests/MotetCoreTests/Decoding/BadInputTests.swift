import Foundation
import MotetDecoding
import MotetTestSupport
import Testing

/// Every bad input gives one clear line that names the file, says what is wrong and what to do.
@Suite struct BadInputTests {
    /// The error `VorbisDecoder(path:)` throws, or a recorded issue when it opens.
    func openError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> DecoderError? {
        errorOpening(path, with: { (p: String) throws(DecoderError) in _ = try VorbisDecoder(path: p) }, sourceLocation: sourceLocation)
    }

    @Test func missingFile() throws {
        let dir = try Scratch()
        let path = dir.file("missing.ogg")
        let error = openError(path)
        expectClearLine(error, path: path, saying: "no such file")
        #expect(error?.code == DecoderError.motetCode)
    }

    @Test func unreadableFile() throws {
        let dir = try Scratch()
        let path = dir.file("locked.ogg")
        try Fixtures.oggVorbis(path, seconds: 0.1)
        chmod(path, 0)
        // root reads everything: check as an ordinary user by switching this thread's file-system
        // user id (setfsuid is per thread on Linux), as the player's user would see it.
        let error = FilesystemUser.asNobody { openError(path) }
        expectClearLine(error, path: path, saying: "permission denied")
    }

    @Test func emptyFile() throws {
        let dir = try Scratch()
        let path = dir.file("empty.ogg")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        expectClearLine(openError(path), path: path, saying: "empty")
    }

    @Test func directoryNamedOgg() throws {
        let dir = try Scratch()
        let path = dir.file("album.ogg")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        expectClearLine(openError(path), path: path, saying: "is a directory")
    }

    @Test func namedPipeDoesNotHang() throws {
        let dir = try Scratch()
        let path = dir.file("pipe.ogg")
        #expect(mkfifo(path, 0o600) == 0)
        expectClearLine(openError(path), path: path, saying: "is not a regular file")
    }

    @Test func notOgg() throws {
        let dir = try Scratch()
        // sox picks the format from the name: make a .wav, then give it an .ogg name.
        let wav = dir.file("sound.ogg")
        try Fixtures.wav(dir.file("sound.wav"), seconds: 0.1)
        try FileManager.default.moveItem(atPath: dir.file("sound.wav"), toPath: wav)
        expectClearLine(openError(wav), path: wav, saying: "a WAV file, not Ogg Vorbis")

        let text = dir.file("notes.ogg")
        try "just some text\n".write(toFile: text, atomically: true, encoding: .utf8)
        let error = openError(text)
        expectClearLine(error, path: text, saying: "not an Ogg file")
        #expect(error?.code == -132)  // OV_ENOTVORBIS
    }

    @Test func oggButNotVorbis() throws {
        let dir = try Scratch()
        let path = dir.file("lossless.ogg")
        try Fixtures.foreignOgg(path, payload: [0x7f] + Array("FLAC".utf8) + [1, 0, 0, 1])
        expectClearLine(openError(path), path: path, saying: "an Ogg FLAC file, not Ogg Vorbis or Ogg Opus")

        let unknown = dir.file("unknown.ogg")
        try Fixtures.foreignOgg(unknown, payload: Array("SomethingElse".utf8))
        expectClearLine(openError(unknown), path: unknown, saying: "not Ogg Vorbis")
    }

    @Test func truncatedInTheHeaders() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.ogg")
        try Fixtures.oggVorbis(whole, seconds: 1)
        let cut = dir.file("cut-header.ogg")
        try Fixtures.truncatedCopy(of: whole, to: cut, bytes: 100)
        let error = openError(cut)
        expectClearLine(error, path: cut, saying: "Vorbis headers are damaged or cut short")
        #expect(error?.code != DecoderError.motetCode)
    }

    @Test func truncatedInTheAudioPlaysWhatIsThereThenFails() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.ogg")
        // Noise: many pages, so the cut falls well inside the audio.
        try Fixtures.oggVorbis(whole, seconds: 2, synth: ["pinknoise"])
        let size = try FileManager.default.attributesOfItem(atPath: whole)[.size] as! Int
        let cut = dir.file("cut.ogg")
        try Fixtures.truncatedCopy(of: whole, to: cut, bytes: size * 2 / 3)

        let reference = try Fixtures.referenceDecode(cut)
        let decoded = try DecodedFile.read(cut)
        #expect(decoded.frames > 0)
        #expect(decoded.frames < 88200)
        #expect(difference(PCM16.bytes(decoded.allSamples), reference) == nil)
        expectClearLine(decoded.failure, path: cut, saying: "ends early")
    }

    @Test func aCompleteFileWithoutTheEndOfStreamFlagIsASuccessBitExact() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.ogg")
        try Fixtures.oggVorbis(whole, seconds: 2, synth: ["pinknoise"])
        let eosless = dir.file("no-eos.ogg")
        try Fixtures.withoutEndOfStream(of: whole, to: eosless)

        let reference = try Fixtures.referenceDecode(whole)
        let decoded = try DecodedFile.read(eosless)
        #expect(decoded.failure == nil, "\(String(describing: decoded.failure))")
        #expect(decoded.holes.isEmpty)
        let total = try VorbisDecoder(path: eosless).totalFrames
        #expect(decoded.frames == 88200, "total \(String(describing: total))")
        #expect(difference(PCM16.bytes(decoded.allSamples), reference) == nil)
    }

    @Test func garbageInTheMiddleIsAHoleAndDecodingContinues() throws {
        let dir = try Scratch()
        let whole = dir.file("whole.ogg")
        try Fixtures.oggVorbis(whole, seconds: 3, synth: ["pinknoise"])
        let size = try FileManager.default.attributesOfItem(atPath: whole)[.size] as! Int
        let damaged = dir.file("damaged.ogg")
        try Fixtures.damagedCopy(of: whole, to: damaged, offset: size / 2, count: 500)

        let decoded = try DecodedFile.read(damaged)
        #expect(!decoded.holes.isEmpty)
        expectClearLine(decoded.holes.first, path: damaged, saying: "damaged or missing data at ")
        #expect(decoded.holes.first?.code == -3)  // OV_HOLE
        #expect(decoded.failure == nil)
        // Decoding went on past the hole to the end of the file, exactly as libvorbisfile's own
        // decoder does.
        #expect(decoded.frames > 132_300 / 2)
        #expect(difference(PCM16.bytes(decoded.allSamples), try Fixtures.referenceDecode(damaged)) == nil)
        #expect(decoded.frames < 132_300)
        #expect(decoded.finalPosition == 3_000_000)
    }

    @Test func aChainWithADamagedLinkPlaysItsOtherLinks() throws {
        let dir = try Scratch()
        let a = dir.file("a.ogg")
        let b = dir.file("b.ogg")
        let c = dir.file("c.ogg")
        try Fixtures.oggVorbis(a, seconds: 1, synth: ["pinknoise"], tags: Fixtures.Tags(title: "A"), serial: 1)
        try Fixtures.oggVorbis(b, seconds: 0.5, synth: ["pinknoise"], tags: Fixtures.Tags(title: "B"), serial: 2)
        try Fixtures.oggVorbis(c, seconds: 0.7, rate: 22050, channels: 1, synth: ["sine", "300-900"], tags: Fixtures.Tags(title: "C"), serial: 3)
        let chain = dir.file("chain.ogg")
        try Fixtures.chain([a, b, c], into: chain)
        // Damage the second link's setup header (its page after the 58-byte identification page).
        let sizeA = try FileManager.default.attributesOfItem(atPath: a)[.size] as! Int
        let damaged = dir.file("damaged-chain.ogg")
        try Fixtures.damagedCopy(of: chain, to: damaged, offset: sizeA + 400, count: 50)

        let decoder = try VorbisDecoder(path: damaged)
        #expect(decoder.durationMicros == nil)
        #expect(!decoder.canSeek)
        #expect(decoder.metadata.title == "A")
        #expect(decoder.metadata.warnings.contains { $0.contains("damaged") })
        #expect(throws: DecoderError.self) { try decoder.seek(toMicros: 100_000) }
        let decoded = DecodedFile.read(decoder)
        #expect(decoded.failure == nil)
        #expect(!decoded.holes.isEmpty)
        #expect(decoded.links.first?.metadata.title == "A")
        #expect(decoded.links.last?.metadata.title == "C")
        #expect(decoded.links.last?.format.sampleRate == 22050)
        #expect(difference(PCM16.bytes(decoded.links.first?.samples ?? []), try Fixtures.referenceDecode(a)) == nil)
        #expect(difference(PCM16.bytes(decoded.links.last?.samples ?? []), try Fixtures.referenceDecode(c)) == nil)
        #expect(decoded.finalPosition == 1_700_000)
    }

    @Test func noCrashOnDamagedBytesAnywhere() throws {
        let dir = try Scratch()
        let first = dir.file("first.ogg")
        let second = dir.file("second.ogg")
        try Fixtures.oggVorbis(first, seconds: 0.6, channels: 2, synth: ["pinknoise"], tags: Fixtures.Tags(title: "T", artists: ["A"]), serial: 1)
        try Fixtures.oggVorbis(second, seconds: 0.4, rate: 22050, channels: 1, synth: ["pinknoise"], serial: 2)
        let whole = dir.file("whole.ogg")
        try Fixtures.chain([first, second], into: whole)
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let path = dir.file("fuzzed.ogg")
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 3000 * 2)
        defer { buffer.deallocate() }
        var opened = 0
        var holes = 0
        for round in 0..<200 {
            var bytes = original
            switch round % 3 {
            case 0: for _ in 0..<(1 + next() % 8) { bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next()) }
            case 1: bytes.removeLast(next() % bytes.count)
            default:
                let start = next() % bytes.count
                for i in start..<min(bytes.count, start + next() % 400) { bytes[i] = UInt8(truncatingIfNeeded: next()) }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let decoder: VorbisDecoder
            do {
                decoder = try VorbisDecoder(path: path)
            } catch {
                #expect(error.line(path: path).hasPrefix(path + ": "))
                continue
            }
            opened += 1
            var frames = 0
            reading: for _ in 0..<10_000 {
                // Seeks now and then, also right after a link change (samples pending).
                if next() % 40 == 0 { try? decoder.seek(toMicros: Int64(next() % 1_200_000)) }
                switch decoder.read(into: buffer, maxFrames: 1 + next() % 3000) {
                case .frames(let n): frames += n
                case .linkChanged: #expect(decoder.format.channels <= 2)
                case .hole(let e):
                    holes += 1
                    #expect(e.line(path: path).hasPrefix(path + ": "))
                case .endOfStream: break reading
                case .failed(let e):
                    #expect(e.line(path: path).hasPrefix(path + ": "))
                    break reading
                }
            }
            #expect(decoder.positionMicros >= 0)
        }
        #expect(opened > 20)
        #expect(holes > 0)
    }
}
