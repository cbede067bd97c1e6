#include <stdio.h>
#include <vorbis/vorbisfile.h>
/* ov_read_float + interleave into a 512 KiB ring: what any player must at least do. */
static float ring[1 << 17];
int main(int argc, char **argv) {
    OggVorbis_File vf;
    if (argc != 2 || ov_fopen(argv[1], &vf) != 0) return 1;
    long pos = 0; int link = 0; float sum = 0;
    for (;;) {
        float **pcm;
        long n = ov_read_float(&vf, &pcm, 4096, &link);
        if (n == OV_HOLE) continue;
        if (n <= 0) break;
        int ch = ov_info(&vf, link)->channels;
        for (long i = 0; i < n; i++)
            for (int c = 0; c < ch; c++) ring[(pos++) & ((1 << 17) - 1)] = pcm[c][i];
        sum += ring[(pos - 1) & ((1 << 17) - 1)];
    }
    ov_clear(&vf);
    printf("%ld samples %g\n", pos, sum);
    return 0;
}
