/* The reference an Opus decode must equal: libopusfile's op_read_float in a plain loop, each float
 * converted to 16 bits as Motet's outputs and libvorbisfile's ov_read convert (lrintf(x * 32768),
 * clamped), written as raw little-endian frames in WAV channel order (mapping family 1 is in Vorbis
 * order; the table is the Vorbis I specification's, section 4.3.9, to WAVEFORMATEXTENSIBLE).
 *
 * usage: opus_reference IN.opus OUT.raw [links.txt]
 * links.txt, when given, gets one line per link as it is decoded: "frames channels".
 * Built by the tests with cc (Tests/MotetTestSupport/OpusFixtures.swift). */
#include <math.h>
#include <opusfile.h>
#include <stdint.h>
#include <stdio.h>

static const int wav_to_vorbis[9][8] = {
    {0}, {0}, {0, 1}, {0, 2, 1}, {0, 1, 2, 3}, {0, 2, 1, 3, 4}, {0, 2, 1, 5, 3, 4},
    {0, 2, 1, 6, 5, 3, 4}, {0, 2, 1, 7, 5, 6, 3, 4},
};

static int16_t to_int16(float x) {
    long v = lrintf(x * 32768.0f);
    if (v > 32767) return 32767;
    if (v < -32768) return -32768;
    return (int16_t)v;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int error = 0;
    OggOpusFile *of = op_open_file(argv[1], &error);
    if (!of) { fprintf(stderr, "op_open_file: %d\n", error); return 1; }
    FILE *out = fopen(argv[2], "wb");
    FILE *links = argc > 3 ? fopen(argv[3], "w") : NULL;
    if (!out) return 1;
    static float pcm[5760 * 8];
    static int16_t frame[8];
    int current = -1;
    long frames_in_link = 0;
    int channels = 0;
    for (;;) {
        int li = 0;
        int n = op_read_float(of, pcm, (int)(sizeof pcm / sizeof pcm[0]), &li);
        if (n == OP_HOLE) continue;
        if (n < 0) { fprintf(stderr, "op_read_float: %d\n", n); return 1; }
        if (n == 0) break;
        if (li != current) {
            if (links && current >= 0) fprintf(links, "%ld %d\n", frames_in_link, channels);
            current = li;
            frames_in_link = 0;
        }
        channels = op_channel_count(of, li);
        if (channels < 1 || channels > 8) return 1;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < channels; c++) {
                frame[c] = to_int16(pcm[i * channels + wav_to_vorbis[channels][c]]);
            }
            fwrite(frame, sizeof frame[0], (size_t)channels, out);
        }
        frames_in_link += n;
    }
    if (links) { fprintf(links, "%ld %d\n", frames_in_link, channels); fclose(links); }
    op_free(of);
    return fclose(out) == 0 ? 0 : 1;
}
