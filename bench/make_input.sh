#!/usr/bin/env bash
# Generates the benchmark inputs into bench/out/ (git-ignored), once:
#   bench/out/ten-minutes.ogg  600 s, 44.1 kHz stereo, oggenc -q 5 (~155-160 kb/s average)
#   bench/out/one-minute.ogg    60 s, same encoding
#   bench/out/one-minute.opus   the same sound at 48 kHz, opusenc --bitrate 128 (made only when
#                               opusenc is there: bench/instructions.sh with INSTR_CODEC=opus)
#   bench/out/ten-minutes.opus  600 s of it, with BENCH_CODEC=opus (bench/run.sh)
#   bench/out/crossfade-a.ogg   180 s, the same sound, album "Crossfade A" (BENCH_INPUT=crossfade:
#   bench/out/crossfade-b.ogg   bench/crossfade.sh); 180 s of another sound (a square and a sine
#                               sweeping the other way over brown and pink noise, a faster tremolo),
#                               album "Crossfade B": two albums, so the pair is crossfaded
# The sound is generated (no copyrighted material): two sweeps with a tremolo over independent pink
# noise in each channel, enough content that the encoder really spends the bitrate (a tone alone
# gives ~100 kb/s whatever -b asks for, and would make decoding look cheaper than music).
# Needs sox and oggenc (vorbis-tools). Usage: bench/make_input.sh [OUTDIR]
set -euo pipefail
out=${1:-"$(cd "$(dirname "$0")" && pwd)/out"}
mkdir -p "$out"

the_sound=(sine 220-880 sine 330-660 pinknoise pinknoise tremolo 3 40 remix 1,3 2,4 gain -6)

make_track() { # NAME SECONDS [TITLE ALBUM SOX-EFFECTS...]
    local name=$1 seconds=$2 title=${3:-"Bench $2 s"} album=${4:-Benchmarks}
    local sound=("${the_sound[@]}")
    [ $# -gt 4 ] && sound=("${@:5}")
    [ -s "$out/$name.ogg" ] && return 0
    local wav="$out/$name.wav"
    # Two channels that differ (so stereo coupling has work to do), 16-bit PCM for oggenc.
    sox -n -r 44100 -c 2 -b 16 "$wav" synth "$seconds" "${sound[@]}" 2>/dev/null
    oggenc -Q -q 5 -s 1234 -t "$title" -a "Motet bench" -l "$album" \
        "$wav" -o "$out/$name.ogg.part"
    mv "$out/$name.ogg.part" "$out/$name.ogg"
    rm -f "$wav"
}

make_track ten-minutes 600
make_track one-minute 60
if [ "${BENCH_INPUT:-}" = crossfade ]; then
    make_track crossfade-a 180 "Crossfade A" "Crossfade A"
    make_track crossfade-b 180 "Crossfade B" "Crossfade B" \
        square 110-220 sine 440-220 brownnoise pinknoise tremolo 5 60 remix 1,3 2,4 gain -9
fi

make_opus_track() { # NAME SECONDS
    local name=$1 seconds=$2
    [ -s "$out/$name.opus" ] && return 0
    command -v opusenc >/dev/null 2>&1 || return 0
    local wav="$out/$name.opus.wav"
    sox -n -r 48000 -c 2 -b 16 "$wav" \
        synth "$seconds" sine 220-880 sine 330-660 pinknoise pinknoise \
        tremolo 3 40 remix 1,3 2,4 gain -6 2>/dev/null
    opusenc --quiet --bitrate 128 --serial 1234 --title "Bench $seconds s" --artist "Motet bench" --album "Benchmarks" \
        "$wav" "$out/$name.opus.part"
    mv "$out/$name.opus.part" "$out/$name.opus"
    rm -f "$wav"
}

make_opus_track one-minute 60
# The ten-minute Opus file only for BENCH_CODEC=opus (bench/run.sh): encoding it takes a while.
[ "${BENCH_CODEC:-}" = opus ] && make_opus_track ten-minutes 600
exit 0
