/* The decoding limit for the benchmark: the plainest possible loop over libvorbisfile's
 * ov_read_float, with nothing done to the samples but a checksum that keeps the compiler from
 * dropping the work. Whatever Motet does on top (ring, conversion, pacing) is measured against this.
 *
 *   cc -O2 -o vorbis_loop vorbis_loop.c $(pkg-config --cflags --libs vorbisfile)
 *   vorbis_loop FILE.ogg      -> prints frames and seconds of audio decoded, exit 0
 */
#include <stdio.h>
#include <vorbis/vorbisfile.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.ogg\n", argv[0]);
        return 64;
    }
    OggVorbis_File vf;
    if (ov_fopen(argv[1], &vf) != 0) {
        fprintf(stderr, "%s: not an Ogg Vorbis file\n", argv[1]);
        return 1;
    }
    long long frames = 0;
    double audio_seconds = 0;
    float checksum = 0;
    int link = -1;
    for (;;) {
        float **pcm;
        int current = 0;
        long n = ov_read_float(&vf, &pcm, 4096, &current);
        if (n == OV_HOLE) continue;
        if (n < 0) {
            fprintf(stderr, "%s: decode error %ld\n", argv[1], n);
            ov_clear(&vf);
            return 1;
        }
        if (n == 0) break;
        if (current != link) link = current;
        vorbis_info *info = ov_info(&vf, link);
        for (int c = 0; c < info->channels; c++) checksum += pcm[c][n - 1];
        frames += n;
        audio_seconds += (double)n / info->rate;
    }
    ov_clear(&vf);
    printf("%lld frames, %.3f s of audio (checksum %g)\n", frames, audio_seconds, checksum);
    return 0;
}
