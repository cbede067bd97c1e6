import MotetEvents

/// A RIFF/WAVE header for a stream of interleaved samples, and where its size fields live so a
/// writer can keep them true after every write.
///
/// Mono and stereo 16-bit PCM get the classic 44-byte header (format tag 1). More channels, or float
/// samples, get WAVE_FORMAT_EXTENSIBLE with the channel mask of the WAV/SMPTE order and a `fact`
/// chunk for float (required for non-PCM data).
struct WAVHeader {
    let format: AudioFormat
    let float: Bool

    var bytesPerSample: Int { float ? 4 : 2 }
    var blockAlign: Int { bytesPerSample * format.channels }
    var extensible: Bool { float || format.channels > 2 }
    /// Offset of the RIFF chunk size.
    let riffSizeOffset = 4
    /// Offset of the `fact` chunk's frame count, when there is one.
    var factFramesOffset: Int? { float ? 12 + 8 + 40 + 8 : nil }
    /// Offset of the `data` chunk size.
    var dataSizeOffset: Int { size - 4 }
    /// Header size: where the samples start.
    var size: Int { 12 + 8 + (extensible ? 40 : 16) + (float ? 12 : 0) + 8 }

    /// The WAVE_FORMAT_EXTENSIBLE speaker mask for `channels` in WAV order (0 when unknown).
    static func channelMask(channels: Int) -> UInt32 {
        switch channels {
        case 1: 0x4  // FC
        case 2: 0x3  // FL FR
        case 3: 0x7  // FL FR FC
        case 4: 0x33  // FL FR BL BR
        case 5: 0x37  // FL FR FC BL BR
        case 6: 0x3F  // FL FR FC LFE BL BR
        case 7: 0x70F  // FL FR FC LFE BC SL SR
        case 8: 0x63F  // FL FR FC LFE BL BR SL SR
        default: 0
        }
    }

    /// The header bytes for `frames` frames of data.
    func bytes(frames: Int64) -> [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(size)
        func u16(_ v: Int) { b += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
        func u32(_ v: UInt32) { b += [UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff), UInt8(v >> 24)] }
        func tag(_ s: String) { b += Array(s.utf8) }
        let data = dataBytes(frames: frames)
        tag("RIFF")
        u32(riffSize(dataBytes: data))
        tag("WAVE")
        tag("fmt ")
        u32(extensible ? 40 : 16)
        u16(extensible ? 0xFFFE : 1)
        u16(format.channels)
        u32(UInt32(format.sampleRate))
        u32(UInt32(format.sampleRate * blockAlign))
        u16(blockAlign)
        u16(bytesPerSample * 8)
        if extensible {
            u16(22)
            u16(bytesPerSample * 8)
            u32(Self.channelMask(channels: format.channels))
            // KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT: {0000000X-0000-0010-8000-00AA00389B71}
            u32(float ? 3 : 1)
            b += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        if float {
            tag("fact")
            u32(4)
            u32(UInt32(truncatingIfNeeded: frames))
        }
        tag("data")
        u32(data)
        return b
    }

    /// The `data` chunk size for `frames` frames.
    func dataBytes(frames: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: frames * Int64(blockAlign))
    }

    /// The RIFF chunk size: everything after its own 8 bytes.
    func riffSize(dataBytes: UInt32) -> UInt32 {
        UInt32(size - 8) &+ dataBytes
    }

    /// The most frames one file can hold (RIFF sizes are 32-bit).
    var maximumFrames: Int64 { (Int64(UInt32.max) - Int64(size)) / Int64(blockAlign) }
}
