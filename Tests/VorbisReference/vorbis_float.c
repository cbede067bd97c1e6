/* libvorbisfile's own float output for a file: ov_read_float in a plain loop, written as raw
 * interleaved 32-bit floats (native order) in Vorbis channel order, which is WAV's for one or two
 * channels. The crossfade tests compute the expected mix from it (a decode already rounded to 16
 * bits would add up to a bit of its own error to the formula).
 *
 * usage: vorbis_float IN.ogg OUT.raw
 * prints "RATE CHANNELS FRAMES" of the first link on standard output.
 * Built by the tests with cc (Tests/MotetTestSupport/OpusFixtures.swift, `compiledProgram`). */
#include <stdio.h>
#include <vorbis/vorbisfile.h>

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    OggVorbis_File vf;
    if (ov_fopen(argv[1], &vf) != 0) { fprintf(stderr, "ov_fopen failed\n"); return 1; }
    FILE *out = fopen(argv[2], "wb");
    if (!out) return 1;
    vorbis_info *vi = ov_info(&vf, -1);
    long frames = 0;
    for (;;) {
        float **pcm = NULL;
        int link = 0;
        long n = ov_read_float(&vf, &pcm, 4096, &link);
        if (n == OV_HOLE) continue;
        if (n < 0) { fprintf(stderr, "ov_read_float: %ld\n", n); return 1; }
        if (n == 0) break;
        for (long i = 0; i < n; i++)
            for (int c = 0; c < vi->channels; c++) fwrite(&pcm[c][i], sizeof(float), 1, out);
        frames += n;
    }
    printf("%ld %d %ld\n", vi->rate, vi->channels, frames);
    fclose(out);
    ov_clear(&vf);
    return 0;
}
