/* The Opus decoding limit for the benchmark: the plainest possible loop over libopusfile's
 * op_read_float, with nothing done to the samples but a checksum that keeps the compiler from
 * dropping the work (the Opus twin of vorbis_loop.c).
 *
 *   cc -O2 -o opus_loop opus_loop.c $(pkg-config --cflags --libs opusfile)
 *   opus_loop FILE.opus      -> prints frames and seconds of audio decoded, exit 0
 */
#include <opusfile.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.opus\n", argv[0]);
        return 64;
    }
    int error = 0;
    OggOpusFile *of = op_open_file(argv[1], &error);
    if (of == NULL) {
        fprintf(stderr, "%s: not an Ogg Opus file (%d)\n", argv[1], error);
        return 1;
    }
    /* 120 ms of up to 8 channels: the most one packet decodes to. */
    static float pcm[5760 * 8];
    long long frames = 0;
    float checksum = 0;
    for (;;) {
        int link = 0;
        int n = op_read_float(of, pcm, (int)(sizeof pcm / sizeof pcm[0]), &link);
        if (n == OP_HOLE) continue;
        if (n < 0) {
            fprintf(stderr, "%s: decode error %d\n", argv[1], n);
            op_free(of);
            return 1;
        }
        if (n == 0) break;
        int channels = op_channel_count(of, link);
        for (int c = 0; c < channels; c++) checksum += pcm[(n - 1) * channels + c];
        frames += n;
    }
    op_free(of);
    printf("%lld frames, %.3f s of audio (checksum %g)\n", frames, (double)frames / 48000, checksum);
    return 0;
}
