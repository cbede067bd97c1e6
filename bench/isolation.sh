#!/usr/bin/env bash
# Plugin isolation (docs/ISOLATION.md): what a plugin's own process costs, side by side with the
# same plugins in motet's process, in one run.
#
#   bench/isolation.sh            # needs a release build with motet-plugin-host (make release)
#
# 1. Latency: per-event delivery of now-playing events, from the state machine (the event's
#    elapsed_at_us, sampled when it is published) to the plugin's on_event (the probe's clock),
#    over 150 tracks of 0.1 s played in real time (so that events do not queue behind each other,
#    as they would in an --untimed burst): median and p99, in process and isolated.
# 2. RSS: the peak resident memory (VmHWM) of the plugin's process for a C plugin (the example
#    delegate) and for a Swift plugin (the json delegate, built on the kit), 10 s of playback.
# 3. CPU: CPU-seconds per minute of real-time playback into a private PulseAudio null sink with
#    the four bundled delegates (log, json, notify, mpris on a private bus), in process against
#    --plugin-isolation always: motet plus every plugin process, all threads (schedstat).
# 4. Wake-ups: context switches per second of motet plus one isolated C plugin's process, headless
#    on pulse, over the same window.
#
# Environment: MOTET_BUILD_DIR (default: the release bin dir), ISO_SECONDS (60), ISO_RUNS (1).
# Writes bench/out/isolation.md and prints it. Exits 1 when a run failed (no number is printed
# for it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
seconds=${ISO_SECONDS:-60}
runs=${ISO_RUNS:-1}
die() { echo "isolation: $*" >&2; exit 1; }
for tool in pulseaudio pactl dbus-daemon sox oggenc cc python3; do command -v "$tool" >/dev/null || die "missing: $tool (make deps-bench)"; done
bin=${MOTET_BUILD_DIR:-$(cd "$root" && swift build -c release --show-bin-path)}
motet=$bin/motet
[ -x "$motet" ] && [ -x "$bin/motet-plugin-host" ] || die "no release build with motet-plugin-host in $bin (make release)"

mkdir -p "$out"
"$here/make_input.sh" "$out"
long=$out/ten-minutes.ogg
work=$(mktemp -d /tmp/motet-isolation.XXXXXX)
. "$here/lib.sh"
player=
cleanup() {
    [ -n "$player" ] && kill "$player" 2>/dev/null && wait "$player" 2>/dev/null
    stop_private_servers
    rm -rf "$work"
}
trap cleanup EXIT
bench_isolate
mkdir -p "$work/plugins" && chmod 755 "$work/plugins"
inc=$root/Sources/MotetPluginABI/include
cc -shared -fPIC -fvisibility=hidden -O2 -Wl,-z,defs -I "$inc" -o "$work/plugins/probe.so" "$root/Tests/PluginHostTests/CPlugins/probe.c" -lpthread
cc -shared -fPIC -fvisibility=hidden -O2 -Wl,-z,defs -I "$inc" -o "$work/plugins/hello.so" "$root/Examples/c-plugin/plugin.c"
failed=0
report=$work/report.md
: >"$report"

# --- 1. Latency
for i in $(seq 150); do printf '%s\n' "$work/short/$i.ogg"; done >"$work/short.m3u"
mkdir -p "$work/short"
sox -n -r 44100 -c 2 -b 16 "$work/short.wav" synth 0.1 sine 440 2>/dev/null
oggenc -Q "$work/short.wav" -o "$work/short/1.ogg"
for i in $(seq 2 150); do cp "$work/short/1.ogg" "$work/short/$i.ogg"; done
latency() { # MODE -> "median p99 count" in microseconds
    local probe_out=$work/probe-$1.out
    rm -f "$probe_out"
    "$motet" --no-config --output null --status quiet --plugin-isolation "$1" \
        --plugin "$work/plugins/probe.so:out=$probe_out" "$work/short.m3u" >/dev/null 2>"$work/latency-$1.err" || return 1
    python3 - "$probe_out" <<'PY'
import re, sys, statistics
d = []
for line in open(sys.argv[1]):
    m = re.match(r"(\d+) \S+ np .* at=(\d+) ", line)
    if m and int(m.group(2)) > 0: d.append(int(m.group(1)) - int(m.group(2)))
if len(d) < 150: sys.exit(1)
d.sort()
print(statistics.median(d), d[int(len(d) * 0.99) - 1], len(d))
PY
}
echo "## Per-event delivery latency (now-playing, state machine to on_event)" >>"$report"
echo "| plugin runs | median µs | p99 µs | events |" >>"$report"
echo "|---|---:|---:|---:|" >>"$report"
for mode in never always; do
    if r=$(latency $mode); then
        read -r med p99 n <<<"$r"
        echo "| $([ $mode = never ] && echo "in motet's process" || echo "isolated") | $med | $p99 | $n |" >>"$report"
    else
        echo "isolation: the latency run ($mode) failed: $(tail -3 "$work/latency-$mode.err")" >&2; failed=1
    fi
done

# --- 2. RSS of the plugin's process
host_hwm() { # prints the largest VmHWM (KiB) among motet's plugin processes
    local m=0 p v
    for p in $(pgrep -P "$1" -f motet-plugin-host || true); do
        v=$(awk '/^VmHWM/ { print $2 }' /proc/"$p"/status 2>/dev/null || echo 0)
        [ "${v:-0}" -gt "$m" ] && m=$v
    done
    echo "$m"
}
rss_case() { # NAME PLUGIN-ARGS...
    local name=$1 peak=0 v
    shift
    "$motet" --no-config --output null --status quiet --plugin-isolation always "$@" "$long" >/dev/null 2>"$work/rss-$name.err" &
    player=$!
    for _ in $(seq 20); do sleep 0.5; v=$(host_hwm "$player"); [ "$v" -gt "$peak" ] && peak=$v; done
    kill "$player" 2>/dev/null; wait "$player" 2>/dev/null || true; player=
    [ "$peak" -gt 0 ] || { echo "isolation: no plugin process seen for $name ($(tail -2 "$work/rss-$name.err"))" >&2; return 1; }
    echo "$peak"
}
echo >>"$report"
echo "## Peak RSS of a plugin's process (VmHWM, 10 s of playback; goal for C: < 3 MiB)" >>"$report"
echo "| plugin | KiB | MiB |" >>"$report"
echo "|---|---:|---:|" >>"$report"
for c in "C (Examples/c-plugin):$work/plugins/hello.so" "Swift (the json delegate):json:path=$work/now.json"; do
    name=${c%%:*} args=${c#*:}
    if kib=$(rss_case "${name%% *}" --plugin "$args"); then
        echo "| $name | $kib | $(awk -v k="$kib" 'BEGIN { printf "%.2f", k / 1024 }') |" >>"$report"
    else failed=1; fi
done

# --- 3 and 4. CPU and wake-ups on pulse
start_private_pulse
start_private_bus
# cpu_of PIDS: "VOLUNTARY INVOLUNTARY CPU_NS" summed over every thread of the processes.
cpu_of() {
    local p t v=0 n=0 c=0 a b x
    for p in "$@"; do
        for t in /proc/"$p"/task/*; do
            read -r a b < <(awk '/^voluntary_ctxt_switches/ { v = $2 } /^nonvoluntary_ctxt_switches/ { n = $2 } END { print v, n }' "$t/status" 2>/dev/null || echo "0 0")
            x=$(awk '{ print $1 }' "$t/schedstat" 2>/dev/null || echo 0)
            v=$((v + a)) n=$((n + b)) c=$((c + x))
        done
    done
    echo "$v $n $c"
}
measure() { # NAME ISOLATION PLUGIN-ARGS... -> "cpu_s_per_min wakeups_per_s voluntary_per_s involuntary_per_s"
    local name=$1 mode=$2
    shift 2
    PULSE_SERVER=$pulse_server DBUS_SESSION_BUS_ADDRESS=$bus_address "$motet" --no-config --output pulse --status quiet \
        --plugin-isolation "$mode" "$@" "$long" >/dev/null 2>"$work/cpu-$name.err" &
    player=$!
    sleep 5
    local pids before after
    pids="$player $(pgrep -P "$player" -f motet-plugin-host | tr '\n' ' ')"
    before=$(cpu_of $pids)
    sleep "$seconds"
    kill -0 "$player" 2>/dev/null || { echo "isolation: $name ended early: $(tail -3 "$work/cpu-$name.err")" >&2; player=; return 1; }
    after=$(cpu_of $pids)
    kill "$player"; wait "$player" 2>/dev/null || true; player=
    python3 -c 'import sys
b = list(map(int, sys.argv[1].split())); a = list(map(int, sys.argv[2].split())); s = float(sys.argv[3])
print("%.3f %.2f %.2f %.2f" % ((a[2] - b[2]) / 1e9 * 60 / s, (a[0] - b[0] + a[1] - b[1]) / s, (a[0] - b[0]) / s, (a[1] - b[1]) / s))' "$before" "$after" "$seconds"
}
four=(--plugin "log:path=$work/log.txt" --plugin "json:path=$work/now.json" --plugin notify --plugin mpris)
echo >>"$report"
echo "## Four bundled delegates on pulse ($seconds s, $runs run(s), medians; goal: isolated within 0.03 CPU-s/min of in process)" >>"$report"
echo "| plugins run | CPU-s per minute | wake-ups per second |" >>"$report"
echo "|---|---:|---:|" >>"$report"
declare -A cpu wake
for mode in never always; do
    cpus=() wakes=()
    for r in $(seq "$runs"); do
        if m=$(measure "four-$mode-$r" "$mode" "${four[@]}"); then read -r c w _ _ <<<"$m"; cpus+=("$c"); wakes+=("$w"); else failed=1; fi
    done
    [ ${#cpus[@]} -gt 0 ] || continue
    cpu[$mode]=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    wake[$mode]=$(printf '%s\n' "${wakes[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    echo "| $([ $mode = never ] && echo "in motet's process" || echo "each in its own process") | ${cpu[$mode]} | ${wake[$mode]} |" >>"$report"
done
if [ -n "${cpu[never]:-}" ] && [ -n "${cpu[always]:-}" ]; then
    echo "Isolated − in process: $(awk -v a="${cpu[always]}" -v b="${cpu[never]}" 'BEGIN { printf "%+.3f", a - b }') CPU-s per minute." >>"$report"
fi
echo >>"$report"
echo "## Headless wake-ups with one isolated C plugin (goal ≤ 4 per second), beside motet alone" >>"$report"
# Voluntary (a thread went to sleep and was woken: what powertop counts) apart from involuntary
# (a running thread preempted: on a shared virtual machine they follow the host's load).
if m=$(measure alone third-party); then
    read -r c w v n <<<"$m"
    echo "motet alone: $w wake-ups per second ($v voluntary + $n involuntary), $c CPU-s per minute." >>"$report"
else failed=1; fi
if m=$(measure one-isolated third-party --plugin "$work/plugins/hello.so"); then
    read -r c w v n <<<"$m"
    echo "motet + the plugin's process: $w wake-ups per second ($v voluntary + $n involuntary), $c CPU-s per minute." >>"$report"
else failed=1; fi
{
    echo
    echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(uname -r); $(date -u '+%Y-%m-%d %H:%M UTC'); motet $("$motet" --version | head -1)"
} >>"$report"
cp "$report" "$out/isolation.md"
cat "$report"
exit $failed
