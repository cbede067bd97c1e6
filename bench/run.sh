#!/usr/bin/env bash
# Motet benchmark: Motet side by side with the codec library's own limit and with peer players, in one run.
#
#   make bench                      # installs the tools (deps-bench), builds a release, runs this
#   bench/run.sh                    # the same, when the tools and the release build are already there
#   BENCH_CODEC=opus bench/run.sh   # the same for Ogg Opus (make bench-opus)
#
# Installs nothing. Needs (make deps-bench): gcc pkg-config libvorbis-dev sox vorbis-tools mpv time
# pulseaudio pulseaudio-utils dbus-daemon, and a release build (make release).
#
# Environment:
#   MOTET_BUILD_DIR  directory with motet and libmotet-*.so (default: swift build -c release --show-bin-path)
#   BENCH_RUNS       repetitions of each untimed (10-minute) measurement (default 5)
#   BENCH_RT_RUNS    repetitions of each real-time (60 s of audio) measurement (default 3)
#   BENCH_ONLY       untimed | realtime | all (default all)
#   BENCH_CODEC      vorbis (default): the C loop over ov_read_float, oggdec, ogg123 and mpv beside
#                    Motet, on a 44.1 kHz sink; opus: the C loop over op_read_float, opusdec and mpv,
#                    on a 48 kHz sink (the codec's rate: neither player resamples)
#   MOTET_ALT        another motet binary (e.g. a build with a proposed change) measured in the same
#                    run, interleaved, as the rows "motet (alt) ..."
#
# Writes bench/out/raw.tsv (one line per run) and bench/out/summary.md (medians, ratios, the machine,
# goals met or missed), and prints the summary; raw-opus.tsv and summary-opus.md for Opus. bench/RESULTS.md keeps the latest round's figures;
# bench/history/speed-cpu-rss.md every round in full.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
runs=${BENCH_RUNS:-5}
rt_runs=${BENCH_RT_RUNS:-3}
only=${BENCH_ONLY:-all}
codec=${BENCH_CODEC:-vorbis}

die() { echo "bench: $*" >&2; exit 1; }
. "$here/lib.sh"

common_tools=(gcc pkg-config sox oggenc mpv /usr/bin/time pulseaudio pactl dbus-daemon)
case $codec in
vorbis) require_tools "${common_tools[@]}" oggdec ogg123 ;;
opus)
    require_tools "${common_tools[@]}" opusenc opusdec
    pkg-config --exists opusfile || die "missing: libopusfile-dev (run 'make deps-bench')"
    ;;
*) die "BENCH_CODEC=$codec: vorbis or opus" ;;
esac
find_motet "$root"
have_delegates=yes
for p in log json notify mpris; do
    [ -f "$bin/libmotet-$p.so" ] || { echo "bench: $bin/libmotet-$p.so missing: the runs with the four delegates are skipped" >&2; have_delegates=; }
done

mkdir -p "$out"
"$here/make_input.sh" "$out"
long_seconds=600
minute_seconds=60
if [ "$codec" = opus ]; then
    long=$out/ten-minutes.opus minute=$out/one-minute.opus suffix=-opus sink_rate=48000
    build_opus_loop "$out"
    c_loop=$out/opus_loop
else
    long=$out/ten-minutes.ogg minute=$out/one-minute.ogg suffix= sink_rate=44100
    build_vorbis_loop "$out"
    c_loop=$out/vorbis_loop
fi
[ -s "$long" ] && [ -s "$minute" ] || die "bench/make_input.sh made no $long or $minute"

work=$(mktemp -d /tmp/motet-bench.XXXXXX)
cleanup() {
    stop_private_servers
    rm -rf "$work"
}
trap cleanup EXIT
# Nothing of the caller's desktop: no session bus, no sound server, no config, unless started here.
bench_isolate

ticks=$(getconf CLK_TCK)
# CPU seconds (user+sys) a running process has used so far, from /proc/PID/stat.
process_cpu() {
    awk -v t="$ticks" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$1/stat"
}

raw=$out/raw$suffix.tsv
failures=$out/failures$suffix.md
: > "$failures"
printf 'case\trun\twall_s\tuser_s\tsys_s\tmaxrss_kib\tvoluntary_cs\tinvoluntary_cs\tserver_cpu_s\n' > "$raw"

# measure CASE RUN MIN_WALL COMMAND... : one run under /usr/bin/time, appended to raw.tsv.
# MIN_WALL catches a "real-time" run that did not really play (e.g. fell back or failed early).
measure() {
    local name=$1 run=$2 min_wall=$3
    shift 3
    local server_before=0 server_after=0 status=0
    [ -n "$pulse_pid" ] && server_before=$(process_cpu "$pulse_pid")
    /usr/bin/time -o "$work/time" -f '%e %U %S %M %w %c' "$@" >"$work/stdout" 2>"$work/stderr" || status=$?
    [ -n "$pulse_pid" ] && server_after=$(process_cpu "$pulse_pid")
    if [ $status -ne 0 ]; then
        echo "bench: $name (run $run) failed with status $status: $*" >&2
        tail -5 "$work/stderr" >&2
        printf -- '- %s (run %s) failed with status %s: %s\n' "$name" "$run" "$status" "$(tail -1 "$work/stderr")" >> "$failures"
        return 0
    fi
    local wall user sys rss vcs ics
    read -r wall user sys rss vcs ics < <(tail -1 "$work/time")
    if awk -v w="$wall" -v m="$min_wall" 'BEGIN { exit !(w < m) }'; then
        echo "bench: $name (run $run) took only ${wall}s of wall time, expected >= ${min_wall}s: $*" >&2
        printf -- '- %s (run %s) took only %s s of wall time, expected >= %s s\n' "$name" "$run" "$wall" "$min_wall" >> "$failures"
        return 0
    fi
    local server
    server=$(awk -v a="$server_before" -v b="$server_after" 'BEGIN { printf "%.2f", b - a }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$run" "$wall" "$user" "$sys" "$rss" "$vcs" "$ics" "$server" >> "$raw"
    printf '  %-24s run %d: wall %6ss  cpu %5ss  rss %6s KiB  cs %s/%s\n' "$name" "$run" "$wall" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$rss" "$vcs" "$ics"
}

quiet_motet=("$motet" --no-config --status quiet)
alt_motet=("$alt" --no-config --status quiet)
delegates=(--plugin-dir "$bin" --plugin log:path=/dev/null --plugin "json:path=$work/state.json"
    --plugin notify --plugin mpris)
mpv_flags=(--no-config --really-quiet --no-video --no-terminal)

if [ "$only" != realtime ]; then
    echo "Untimed: ${long_seconds} s of audio, $runs runs each (interleaved)"
    for run in $(seq "$runs"); do
        measure c-loop "$run" 0 "$c_loop" "$long"
        measure motet-untimed "$run" 0 "${quiet_motet[@]}" --output null --untimed "$long"
        [ -n "$alt" ] && measure alt-untimed "$run" 0 "${alt_motet[@]}" --output null --untimed "$long"
        if [ "$codec" = opus ]; then
            measure opusdec "$run" 0 opusdec --quiet --rate 48000 "$long" /dev/null
        else
            measure oggdec "$run" 0 oggdec -Q -o /dev/null "$long"
            measure ogg123-null "$run" 0 ogg123 -q -d null "$long"
        fi
        measure mpv-untimed "$run" 0 mpv "${mpv_flags[@]}" --ao=null --ao-null-untimed "$long"
    done
fi

if [ "$only" != untimed ]; then
    start_private_pulse "$sink_rate"
    export PULSE_SERVER=$pulse_server
    start_private_bus
    echo "Real time: ${minute_seconds} s of audio, $rt_runs runs each (interleaved; PulseAudio null sink at $PULSE_SERVER)"
    min=$((minute_seconds - 1))
    for run in $(seq "$rt_runs"); do
        measure motet-null "$run" $min "${quiet_motet[@]}" --output null "$minute"
        [ -n "$have_delegates" ] && measure motet-null+4-nobus "$run" $min "${quiet_motet[@]}" --output null "${delegates[@]}" "$minute"
        [ -n "$have_delegates" ] && measure motet-null+4-bus "$run" $min env DBUS_SESSION_BUS_ADDRESS="$bus_address" \
            "${quiet_motet[@]}" --output null "${delegates[@]}" "$minute"
        [ -n "$alt" ] && measure alt-null "$run" $min "${alt_motet[@]}" --output null "$minute"
        measure mpv-null "$run" $min mpv "${mpv_flags[@]}" --ao=null "$minute"
        measure motet-pulse "$run" $min "${quiet_motet[@]}" --output pulse "$minute"
        [ -n "$have_delegates" ] && measure motet-pulse+4-bus "$run" $min env DBUS_SESSION_BUS_ADDRESS="$bus_address" \
            "${quiet_motet[@]}" --output pulse "${delegates[@]}" "$minute"
        [ -n "$alt" ] && measure alt-pulse "$run" $min "${alt_motet[@]}" --output pulse "$minute"
        [ "$codec" = vorbis ] && measure ogg123-pulse "$run" $min ogg123 -q -d pulse "$minute"
        measure mpv-pulse "$run" $min mpv "${mpv_flags[@]}" --ao=pulse "$minute"
    done
fi

summary=$out/summary$suffix.md
BENCH_CODEC=$codec "$here/summarize.sh" "$raw" "$long_seconds" "$minute_seconds" "$motet" "$alt" > "$summary"
if [ -s "$failures" ]; then
    { echo; echo "## Runs that failed (not in the medians)"; echo; cat "$failures"; } >> "$summary"
fi
cat "$summary"
# A benchmark whose run failed must fail, not print a number.
[ ! -s "$failures" ] || die "$(wc -l < "$failures") run(s) failed: see $failures"
