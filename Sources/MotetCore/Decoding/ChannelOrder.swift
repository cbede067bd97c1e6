/// Vorbis channel order (Vorbis I specification, section 4.3.9) to WAV / SMPTE order
/// (WAVEFORMATEXTENSIBLE), for 1 to 8 channels. More channels have no defined order and pass as is.
/// Ogg Opus mapping family 1 uses the same order (RFC 7845 5.1.1.2).
enum ChannelOrder {
    /// `wavToVorbis(channels)[i]` is the Vorbis channel that goes to WAV position `i`.
    ///
    /// Vorbis: 3 = L C R; 4 = FL FR RL RR; 5 = FL C FR RL RR; 6 = FL C FR RL RR LFE;
    /// 7 = FL C FR SL SR RC LFE; 8 = FL C FR SL SR RL RR LFE.
    /// WAV: 3 = L R C; 4 = FL FR BL BR; 5 = FL FR C BL BR; 6 = FL FR C LFE BL BR;
    /// 7 = FL FR C LFE BC SL SR; 8 = FL FR C LFE BL BR SL SR.
    static func wavToVorbis(channels: Int) -> [Int] {
        switch channels {
        case 3: [0, 2, 1]
        case 5: [0, 2, 1, 3, 4]
        case 6: [0, 2, 1, 5, 3, 4]
        case 7: [0, 2, 1, 6, 5, 3, 4]
        case 8: [0, 2, 1, 7, 5, 6, 3, 4]
        default: Array(0..<max(0, channels))
        }
    }
}
