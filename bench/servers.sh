#!/usr/bin/env bash
# Motet and mpv on PulseAudio and on PipeWire (pipewire-pulse, Debian 12's desktop default), in one
# run: CPU seconds per minute of the player and of the sound server, and wake-ups per second of each.
#
#   make bench-servers              # installs the tools (deps-bench), builds a release, runs this
#   bench/servers.sh                # the same, when the tools and the release build are there
#
# Installs nothing. Needs (make deps-bench): mpv, time, sox, vorbis-tools, pulseaudio,
# pulseaudio-utils, pipewire, pipewire-pulse, wireplumber, dbus-daemon, and a release build.
#
# Environment:
#   MOTET_BUILD_DIR  directory with motet (default: swift build -c release --show-bin-path)
#   BENCH_RT_RUNS    repetitions of each case (60 s of audio each; default 3)
#
# Both servers are private (their own runtime directories; WirePlumber on a private session bus)
# and run side by side for the whole run; each case plays one minute into one of them, the cases
# interleaved. PulseAudio plays into a 44.1 kHz null sink; PipeWire keeps its defaults (a 48 kHz
# graph driven by WirePlumber's dummy "auto_null" sink, so it resamples the 44.1 kHz stream, as on
# a desktop). The server's CPU is that of all its processes (pipewire + wireplumber +
# pipewire-pulse). A wake-up is a voluntary context switch (a thread went to sleep and was woken):
# the player's from getrusage (all threads, via /usr/bin/time), the server's summed over
# /proc/PID/task/*/status before and after.
#
# Writes bench/out/servers-raw.tsv (one line per run) and bench/out/servers.md (medians), and
# prints the latter.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
rt_runs=${BENCH_RT_RUNS:-3}

die() { echo "bench: $*" >&2; exit 1; }

missing=()
for tool in sox oggenc mpv /usr/bin/time pulseaudio pactl pipewire wireplumber pipewire-pulse dbus-daemon; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (run 'make deps-bench')"

bin=${MOTET_BUILD_DIR:-$(cd "$root" && swift build -c release --show-bin-path)}
motet=$bin/motet
[ -x "$motet" ] || die "no release build at $motet (run 'make release' or set MOTET_BUILD_DIR)"

mkdir -p "$out"
"$here/make_input.sh" "$out"
minute=$out/one-minute.ogg
seconds=60

work=$(mktemp -d /tmp/motet-bench-servers.XXXXXX)
. "$here/lib.sh"
cleanup() {
    stop_private_servers
    rm -rf "$work"
}
trap cleanup EXIT
bench_isolate

ticks=$(getconf CLK_TCK)
# CPU seconds (user+sys, all threads) the processes have used so far.
cpu_of() {
    local p total=0
    for p in "$@"; do
        total=$(awk -v t="$ticks" -v s="$total" '{ sub(/^.*\) /, ""); printf "%.2f", s + ($12 + $13) / t }' "/proc/$p/stat")
    done
    echo "$total"
}
# Voluntary context switches of all threads of the processes so far.
wakeups_of() {
    local p
    for p in "$@"; do cat /proc/"$p"/task/*/status 2>/dev/null || true; done | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }'
}

# Both servers side by side for the whole run (bench/lib.sh).
start_private_pulse
start_private_pipewire
pa_pid=$pulse_pid pa_server=$pulse_server pw_server=$pipewire_server pw_run=$pipewire_runtime
pw_pids=("${pipewire_pids[@]}")

raw=$out/servers-raw.tsv
printf 'case\trun\twall_s\tplayer_cpu_s\tplayer_wakeups\tserver_cpu_s\tserver_wakeups\n' > "$raw"

# measure CASE RUN SERVER_PIDS -- COMMAND...
measure() {
    local name=$1 run=$2 server_pids=$3
    shift 4
    local c0 w0 c1 w1 status=0
    # shellcheck disable=SC2086
    c0=$(cpu_of $server_pids); w0=$(wakeups_of $server_pids)
    /usr/bin/time -o "$work/time" -f '%e %U %S %w' "$@" >"$work/stdout" 2>"$work/stderr" || status=$?
    # shellcheck disable=SC2086
    c1=$(cpu_of $server_pids); w1=$(wakeups_of $server_pids)
    if [ $status -ne 0 ]; then
        echo "bench: $name (run $run) failed with status $status: $(tail -1 "$work/stderr")" >&2
        return 0
    fi
    local wall user sys vcs
    read -r wall user sys vcs < <(tail -1 "$work/time")
    if awk -v w="$wall" -v m="$((seconds - 1))" 'BEGIN { exit !(w < m) }'; then
        echo "bench: $name (run $run) took only ${wall}s: it did not play in real time" >&2
        return 0
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$run" "$wall" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$vcs" \
        "$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", b - a }')" "$((w1 - w0))" >> "$raw"
    tail -1 "$raw" | awk -F'\t' '{ printf "  %-22s run %s: wall %6ss  player %5s CPU-s %6.1f wake-ups/s  server %5s CPU-s %6.1f wake-ups/s\n", $1, $2, $3, $4, $5 / $3, $6, $7 / $3 }'
}

quiet_motet=("$motet" --no-config --status quiet --output pulse)
mpv_flags=(--no-config --really-quiet --no-video --no-terminal)
echo "Real time: ${seconds} s of audio, $rt_runs runs each (interleaved); PulseAudio $pa_server, PipeWire $pw_server"
for run in $(seq "$rt_runs"); do
    measure motet-pulseaudio "$run" "$pa_pid" -- env PULSE_SERVER="$pa_server" "${quiet_motet[@]}" "$minute"
    measure mpv-pulseaudio "$run" "$pa_pid" -- env PULSE_SERVER="$pa_server" mpv "${mpv_flags[@]}" --ao=pulse "$minute"
    measure motet-pipewire "$run" "${pw_pids[*]}" -- env PULSE_SERVER="$pw_server" "${quiet_motet[@]}" "$minute"
    measure mpv-pipewire-pulse "$run" "${pw_pids[*]}" -- env PULSE_SERVER="$pw_server" mpv "${mpv_flags[@]}" --ao=pulse "$minute"
    measure mpv-pipewire "$run" "${pw_pids[*]}" -- env XDG_RUNTIME_DIR="$pw_run" mpv "${mpv_flags[@]}" --ao=pipewire "$minute"
done

pa_version=$(pulseaudio --version | awk '{ print $2 }')
pw_version=$(pipewire --version | awk '/libpipewire/ { v = $NF } END { print v }')
{
    echo "| ${seconds} s in real time, medians of $rt_runs (interleaved) | player CPU s (= per minute) | player wake-ups/s | server CPU s | server wake-ups/s |"
    echo "|---|---:|---:|---:|---:|"
    awk -F'\t' -v pulseaudio="PulseAudio $pa_version" -v pipewire="PipeWire $pw_version" "$awk_median"'
    NR == 1 { next }
    {
        c = $1
        if (!(c in seen)) { order[++n] = c; seen[c] = 1 }
        pc[c] = pc[c] " " $4; pwk[c] = pwk[c] " " ($5 / $3); sc[c] = sc[c] " " $6; swk[c] = swk[c] " " ($7 / $3)
    }
    END {
        label["motet-pulseaudio"] = "motet --output pulse, " pulseaudio
        label["mpv-pulseaudio"] = "mpv --ao=pulse, " pulseaudio
        label["motet-pipewire"] = "motet --output pulse, " pipewire " (pipewire-pulse)"
        label["mpv-pipewire-pulse"] = "mpv --ao=pulse, " pipewire " (pipewire-pulse)"
        label["mpv-pipewire"] = "mpv --ao=pipewire (native), " pipewire
        for (i = 1; i <= n; i++) {
            c = order[i]
            printf "| %s | %.2f | %.1f | %.2f | %.1f |\n", label[c], median(pc[c]), median(pwk[c]), median(sc[c]), median(swk[c])
        }
    }' "$raw"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'); nproc $(nproc); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg);" \
        "$("$motet" --version 2>&1 | head -1); $(mpv --version | head -1 | cut -d' ' -f1-2)"
} > "$out/servers.md"
cat "$out/servers.md"
