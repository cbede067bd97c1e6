#!/usr/bin/env bash
# Turns bench/out/raw.tsv into the Markdown summary (medians, ratios, goals, the machine).
# Usage: [BENCH_CODEC=opus] bench/summarize.sh RAW.tsv LONG_SECONDS MINUTE_SECONDS MOTET_BINARY [ALT_MOTET_BINARY]
set -euo pipefail
raw=$1 long_seconds=$2 minute_seconds=$3 motet=$4 alt=${5:-}
codec=${BENCH_CODEC:-vorbis}
. "$(dirname "$0")/lib.sh"

echo "## Machine"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
machine_line
if [ "$codec" = opus ]; then
    echo "- $("$motet" --version 2>&1 | head -1); libopusfile $(pkg-config --modversion opusfile), libopus $(pkg-config --modversion opus); $(mpv --version | head -1 | cut -d' ' -f1-2); $(opusdec --version 2>&1 | head -1)"
else
    echo "- $("$motet" --version 2>&1 | head -1); libvorbis $(pkg-config --modversion vorbis); $(mpv --version | head -1 | cut -d' ' -f1-2); $(ogg123 --version 2>&1 | head -1)"
fi
echo

awk -F'\t' -v long="$long_seconds" -v minute="$minute_seconds" -v codec="$codec" "$awk_median"'
NR == 1 { next }
{
    c = $1
    if (!(c in runs)) order[++cases] = c
    runs[c]++
    wall[c] = wall[c] " " $3; cpu[c] = cpu[c] " " ($4 + $5); rss[c] = rss[c] " " $6
    vcs[c] = vcs[c] " " $7; ics[c] = ics[c] " " $8; srv[c] = srv[c] " " $9
}
END {
    for (i = 1; i <= cases; i++) {
        c = order[i]
        W[c] = median(wall[c]); C[c] = median(cpu[c]); R[c] = median(rss[c]) / 1024
        V[c] = median(vcs[c]); I[c] = median(ics[c]); S[c] = median(srv[c])
    }
    untimed["c-loop"] = "plain C loop over " (codec == "opus" ? "op_read_float" : "ov_read_float") " (the limit)"
    untimed["motet-untimed"] = "motet --output null --untimed"
    untimed["alt-untimed"] = "motet (alt) --output null --untimed"
    untimed["oggdec"] = "oggdec -o /dev/null"
    untimed["opusdec"] = "opusdec --rate 48000 to /dev/null (16-bit, dithered)"
    untimed["ogg123-null"] = "ogg123 -d null (does not pace)"
    untimed["mpv-untimed"] = "mpv --ao=null --ao-null-untimed (FFmpeg decoder)"
    if ("c-loop" in runs) {
        printf "## Untimed: %d s of %s stereo audio (medians of %d runs)\n\n", long, codec == "opus" ? "48 kHz Ogg Opus" : "44.1 kHz Ogg Vorbis", runs["c-loop"]
        print "| program | wall s | CPU s (user+sys) | speed vs C loop (CPU) | speed vs C loop (wall) | peak RSS MiB | vol. / invol. cs |"
        print "|---|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= cases; i++) {
            c = order[i]
            if (!(c in untimed)) continue
            printf "| %s | %.2f | %.2f | %.2f | %.2f | %.1f | %d / %d |\n", untimed[c], W[c], C[c], \
                C["c-loop"] / C[c], W["c-loop"] / W[c], R[c], V[c], I[c]
        }
        print ""
    }
    live["motet-null"] = "motet --output null"
    live["motet-null+4-nobus"] = "motet --output null + 4 delegates, no session bus"
    live["motet-null+4-bus"] = "motet --output null + 4 delegates, private session bus"
    live["alt-null"] = "motet (alt) --output null"
    live["mpv-null"] = "mpv --ao=null"
    live["motet-pulse"] = "motet --output pulse"
    live["motet-pulse+4-bus"] = "motet --output pulse + 4 delegates, private session bus"
    live["alt-pulse"] = "motet (alt) --output pulse"
    live["ogg123-pulse"] = "ogg123 -d pulse"
    live["mpv-pulse"] = "mpv --ao=pulse"
    if ("motet-null" in runs) {
        printf "## Real time: %d s of audio (medians of %d runs)\n\n", minute, runs["motet-null"]
        print "| program | wall s | CPU s (user+sys) | CPU s per minute of audio | peak RSS MiB | vol. / invol. cs | PulseAudio server CPU s |"
        print "|---|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= cases; i++) {
            c = order[i]
            if (!(c in live)) continue
            printf "| %s | %.2f | %.2f | %.3f | %.1f | %d / %d | %s |\n", live[c], W[c], C[c], \
                C[c] * 60 / minute, R[c], V[c], I[c], (c ~ /pulse/) ? sprintf("%.2f", S[c]) : "-"
        }
        print ""
    }
    print "## Goals"
    print ""
    if ("motet-untimed" in runs) {
        r = C["c-loop"] / C["motet-untimed"]
        if (codec == "opus")
            printf "- untimed speed against the C loop (CPU time): %.2f x (wall %.2f x); the goal is in instructions (INSTR_CODEC=opus bench/instructions.sh: at most +2 %%)\n", \
                r, W["c-loop"] / W["motet-untimed"]
        else
            printf "- untimed speed >= 0.95 x the C loop (CPU time): %.2f x -> %s (wall-time ratio %.2f)\n", \
                r, (r >= 0.95) ? "met" : "MISSED", W["c-loop"] / W["motet-untimed"]
    }
    if (codec == "opus" && ("c-loop" in runs) && ("motet-null" in runs)) {
        # What no player on libopusfile can go under: decoding alone, per minute of audio.
        floor = C["c-loop"] * 60 / long
        printf "- the floor: decoding alone (the C loop over op_read_float) takes %.3f CPU-s per minute of audio", floor
        if ("mpv-null" in runs && "mpv-pulse" in runs)
            printf "; a quarter of mpv'"'"'s CPU is %.3f (null) and %.3f (pulse): %s", C["mpv-null"] / 4, C["mpv-pulse"] / 4, \
                (floor >= C["mpv-null"] / 4 || floor >= C["mpv-pulse"] / 4) ? "under the floor, out of reach with libopusfile" : "above the floor"
        print ""
    }
    if (codec == "opus") {
        split("null pulse", sinks, " ")
        for (k = 1; k <= 2; k++) {
            c = "motet-" sinks[k]; m = "mpv-" sinks[k]
            if (!(c in runs) || !(m in runs) || C[m] <= 0) continue
            printf "- real time under a quarter of mpv'"'"'s CPU (%s against %s): %.3f x -> %s\n", c, m, C[c] / C[m], \
                (C[c] < C[m] / 4) ? "met" : "MISSED"
        }
    }
    if (codec == "vorbis" && ("motet-null" in runs)) {
        split("motet-null motet-pulse", rt, " ")
        for (k = 1; k <= 2; k++) {
            c = rt[k]
            if (!(c in runs)) continue
            v = C[c] * 60 / minute
            printf "- real time <= 0.35 CPU-s per minute (%s): %.3f -> %s\n", c, v, (v <= 0.35) ? "met" : "MISSED"
        }
        split("motet-null motet-pulse", nb, " ")
        for (k = 1; k <= 2; k++) {
            c = nb[k]
            if (!(c in runs)) continue
            printf "- peak RSS <= 12 MiB without plugins (%s): %.1f MiB -> %s\n", c, R[c], (R[c] <= 12) ? "met" : "MISSED"
        }
        split("motet-null+4-nobus motet-null+4-bus motet-pulse+4-bus", wb, " ")
        for (k = 1; k <= 3; k++) {
            c = wb[k]
            if (!(c in runs)) continue
            printf "- peak RSS <= 20 MiB with the four delegates (%s): %.1f MiB -> %s\n", c, R[c], (R[c] <= 20) ? "met" : "MISSED"
        }
    }
}' "$raw"
