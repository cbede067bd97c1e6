#!/usr/bin/env bash
# The cost of `--crossfade` (issue 22): Motet playing the same pair of tracks in real time into a
# private PulseAudio null sink with `--crossfade 5` and without, side by side in one run, the two
# alternating (the cases in order in odd runs, in reverse order in even ones).
#
#   make bench-crossfade             # installs the tools (deps-bench), builds a release, runs this
#   bench/crossfade.sh               # the same, with the tools and a release build already there
#
# The pair: bench/out/crossfade-a.ogg and crossfade-b.ogg (bench/make_input.sh with
# BENCH_INPUT=crossfade): 3 minutes each of two different sounds, on two albums, so that the pair
# is crossfaded. Each run plays A from `--start` (XFADE_SECONDS before its end, less the warm-up and
# the crossfade) into B, and measures XFADE_SECONDS of playback after XFADE_WARMUP seconds: the
# window holds A's last 25 s (the 5 s crossfade 20 s in) and then B, with or without the crossfade.
#
# Cases (each run starts each case on its own, then measures it over the window):
#   plain-pulse       motet --no-config --status quiet --output pulse A B
#   xfade-pulse       the same with --crossfade 5
#   plain-headless    motet --output pulse with the json and mpris delegates on a private session
#                     bus (bench/wakeups.sh's "headless" case)
#   xfade-headless    the same with --crossfade 5
#
# Measured as bench/wakeups.sh does, over the window: CPU seconds of all the player's threads
# (/proc/PID/task/*/schedstat) per minute of audio played, wake-ups per second (context switches,
# voluntary + involuntary, summed over the threads), the server's CPU, and the player's peak RSS
# (VmHWM) at the end of the window, the crossfade behind it.
#
# A run fails, and the script exits 1 after printing what it has, when the player ends early, has
# no uncorked stream on the server after the warm-up or at the end, is not playing B at the end (the
# stream's media.title: the window did not span the change of track), a measurement is missing, or
# the player does not exit 0 on SIGTERM. A failed run gives no figures.
#
# Environment: MOTET_BUILD_DIR (default: the release bin dir), BENCH_RUNS (3), XFADE_SECONDS (60),
# XFADE_WARMUP (5), XFADE_CASES (a space-separated subset of the case names above).
# Writes bench/out/crossfade.tsv (one line per run) and bench/out/crossfade.md (medians, ratios,
# goals, the machine), and prints the latter.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
runs=${BENCH_RUNS:-3}
seconds=${XFADE_SECONDS:-60}
warmup=${XFADE_WARMUP:-5}
cases=${XFADE_CASES:-plain-pulse xfade-pulse plain-headless xfade-headless}
fade=5
track_seconds=180
# The crossfade starts 20 s into the window (or at its middle, for a window shorter than 40 s).
into_window=$((seconds / 2 < 20 ? seconds / 2 : 20))
start=$((track_seconds - fade - into_window - warmup))

die() { echo "crossfade: $*" >&2; exit 1; }
bench_name=crossfade
. "$here/lib.sh"

require_tools sox oggenc pulseaudio pactl dbus-daemon
find_motet "$root"
for p in json mpris; do [ -f "$bin/libmotet-$p.so" ] || die "$bin/libmotet-$p.so missing"; done
[ "$start" -gt 0 ] || die "XFADE_SECONDS=$seconds and XFADE_WARMUP=$warmup do not fit in a ${track_seconds} s track"

mkdir -p "$out"
BENCH_INPUT=crossfade "$here/make_input.sh" "$out"
a=$out/crossfade-a.ogg b=$out/crossfade-b.ogg
[ -s "$a" ] && [ -s "$b" ] || die "bench/make_input.sh made no $a or $b"

work=$(mktemp -d /tmp/motet-crossfade.XXXXXX)
player_pid=
cleanup() {
    if [ -n "$player_pid" ]; then kill "$player_pid" 2>/dev/null || true; wait "$player_pid" 2>/dev/null || true; fi
    stop_private_servers
    rm -rf "$work"
}
trap cleanup EXIT
bench_isolate

# stream_title PID: the media.title of process PID's stream on the server (PULSE_SERVER).
stream_title() {
    pactl list sink-inputs 2>/dev/null | awk -v pid="$1" '
        /^Sink Input #/ { title = ""; mine = 0 }
        /media.title = / { sub(/^[^"]*"/, ""); sub(/"$/, ""); title = $0 }
        /application.process.id = / { gsub(/"/, "", $3); if ($3 == pid) mine = 1 }
        mine && title != "" { print title; exit }'
}

# start CASE: starts the player of CASE in the background, its PID in player_pid.
start() {
    local args=(--no-config --status quiet --output pulse --start "$start")
    case $1 in xfade-*) args+=(--crossfade "$fade") ;; esac
    case $1 in
        *-pulse) "$motet" "${args[@]}" "$a" "$b" >"$work/stdout" 2>"$work/stderr" & ;;
        *-headless)
            DBUS_SESSION_BUS_ADDRESS=$bus_address "$motet" "${args[@]}" --plugin-dir "$bin" \
                --plugin "json:path=$work/state.json" --plugin mpris "$a" "$b" >"$work/stdout" 2>"$work/stderr" & ;;
        *) die "unknown case $1" ;;
    esac
    player_pid=$!
}

raw=$out/crossfade.tsv
failures=$out/crossfade-failures.md
: > "$failures"
printf 'case\trun\tseconds\tplayer_cpu_s\tplayer_voluntary\tplayer_involuntary\tserver_cpu_s\tpeak_rss_kib\n' > "$raw"

# measure CASE RUN
measure() {
    local name=$1 run=$2
    start "$name"
    sample_window "$name" "$run" yes "$pulse_pid" || return 0
    local title
    title=$(stream_title "$player_pid")
    if [ "$title" != "Crossfade B" ]; then
        bench_fail "$name" "$run" "the stream's title at the end is '$title', not 'Crossfade B': the window did not reach the second track"
        return 0
    fi
    local status=0
    kill -TERM "$player_pid"
    wait "$player_pid" || status=$?
    player_pid=
    if [ "$status" -ne 0 ]; then
        bench_fail "$name" "$run" "exited with status $status on SIGTERM: $(tail -1 "$work/stderr")"
        return 0
    fi
    local pv pn pc sv sn sc
    read -r pv pn pc < <(grown "$work/p0" "$work/p1")
    read -r sv sn sc < <(grown "$work/s0" "$work/s1")
    local row
    row=$(printf '%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s' "$name" "$run" "$window_seconds" "$pc" "$pv" "$pn" "$sc" "$peak_rss_kib")
    # Every field, and some CPU and some wake-ups: an empty sample is a failed run, not a zero.
    if ! awk -F'\t' 'NF == 8 { for (i = 1; i <= 8; i++) if ($i == "") exit 1; exit !($3 > 0 && $4 > 0 && $5 + $6 > 0 && $8 > 0) } { exit 1 }' <<<"$row"; then
        bench_fail "$name" "$run" "a measurement is missing: $row"
        return 0
    fi
    echo "$row" >> "$raw"
    awk -F'\t' '{ printf "  %-15s run %s: %.3f CPU-s/min, %5.2f wake-ups/s (%.2f + %.2f), server %.3f CPU-s/min, peak RSS %d KiB\n",
        $1, $2, $4 * 60 / $3, ($5 + $6) / $3, $5 / $3, $6 / $3, $7 * 60 / $3, $8 }' <<<"$row"
}

start_private_pulse
export PULSE_SERVER=$pulse_server
start_private_bus
echo "Crossfade: ${seconds} s of real-time playback after ${warmup} s, from ${start} s into A (3:00) then B, --crossfade $fade and without, $runs run(s) each, into a PulseAudio null sink at $pulse_server"
for run in $(seq "$runs"); do
    ordered=$cases
    # Even runs take the cases in reverse order: each crossfaded case before its plain one.
    [ $((run % 2)) -eq 0 ] && ordered=$(tr ' ' '\n' <<<"$cases" | tac | tr '\n' ' ')
    for c in $ordered; do measure "$c" "$run"; done
done

{
    echo "## Machine"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); ${seconds} s per run after ${warmup} s of warm-up, --start ${start} on a 180 s track then the next, $runs run(s) each (medians)"
    machine_line
    echo "- $("$motet" --version 2>&1 | head -1); libvorbis $(pkg-config --modversion vorbis); $(pulseaudio --version)"
    echo
    awk -F'\t' -v fade="$fade" "$awk_median"'
    NR == 1 { next }
    {
        c = $1; if (!(c in seen)) { order[++n] = c; seen[c] = 1 }; runs[c]++
        pc[c] = pc[c] " " $4 * 60 / $3; pw[c] = pw[c] " " ($5 + $6) / $3; pv[c] = pv[c] " " $5 / $3; pi[c] = pi[c] " " $6 / $3
        sc[c] = sc[c] " " $7 * 60 / $3; rss[c] = rss[c] " " $8 / 1024
    }
    END {
        label["plain-pulse"] = "motet --output pulse"
        label["xfade-pulse"] = "motet --output pulse --crossfade " fade
        label["plain-headless"] = "motet --output pulse, json + mpris delegates, private bus"
        label["xfade-headless"] = "motet --output pulse --crossfade " fade ", json + mpris delegates, private bus"
        for (i = 1; i <= n; i++) {
            c = order[i]; PC[c] = median(pc[c]); PW[c] = median(pw[c]); PV[c] = median(pv[c]); PI[c] = median(pi[c])
            SC[c] = median(sc[c]); R[c] = median(rss[c])
        }
        print "| player | runs | CPU-s per minute of audio | wake-ups/s (voluntary + involuntary) | server CPU-s/min | peak RSS MiB |"
        print "|---|---:|---:|---:|---:|---:|"
        for (i = 1; i <= n; i++) {
            c = order[i]
            printf "| %s | %d | %.3f | %.2f (%.2f + %.2f) | %.3f | %.2f |\n", (c in label ? label[c] : c), runs[c], PC[c], PW[c], PV[c], PI[c], SC[c], R[c]
        }
        print ""
        print "Goals (#22):"
        split("pulse headless", kinds, " ")
        for (k = 1; k <= 2; k++) {
            p = "plain-" kinds[k]; x = "xfade-" kinds[k]
            if (!(p in PC) || !(x in PC)) continue
            printf "- %s: crossfaded CPU <= 1.15 x plain: %.3f / %.3f = %.2f x: %s\n", kinds[k], PC[x], PC[p], PC[x] / PC[p], PC[x] <= 1.15 * PC[p] ? "met" : "missed"
            printf "- %s: crossfaded peak RSS within 1 MiB of plain: %.2f - %.2f = %+.2f MiB: %s\n", kinds[k], R[x], R[p], R[x] - R[p], R[x] - R[p] <= 1 ? "met" : "missed"
        }
        for (k = 1; k <= 2; k++) {
            c = (k == 1 ? "plain" : "xfade") "-headless"
            if (c in PW) printf "- headless wake-ups <= 4/s, %s: %.2f: %s\n", (k == 1 ? "without crossfade" : "with --crossfade " fade), PW[c], PW[c] <= 4 ? "met" : "missed"
        }
    }' "$raw"
} > "$out/crossfade.md"
if [ -s "$failures" ]; then
    { echo; echo "## Runs that failed (not in the medians)"; echo; cat "$failures"; } >> "$out/crossfade.md"
fi
cat "$out/crossfade.md"
# A benchmark whose run failed must fail, not print a number for it.
[ ! -s "$failures" ] || die "$(wc -l < "$failures") run(s) failed: see $failures"
