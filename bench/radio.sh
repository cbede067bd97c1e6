#!/usr/bin/env bash
# Internet radio benchmark (issue 13): 60 s of real-time playback of the same Icecast stream, side
# by side in one run, on `--output null` and on `--output pulse` (a private PulseAudio with a null
# sink): CPU-s per minute and peak RSS of Motet against mpv and ogg123 (both play HTTP) and against
# Motet on the same songs as local files; plus libcurl's own floor (bench/floor/curl-floor.c: a
# program that only dlopens libcurl and calls curl_global_init), measured as bench/floor measures
# libpulse's.
#
#   make bench-radio     # installs the tools (deps-bench), builds a release, runs this
#   bench/radio.sh       # the same, when the tools and the release build are already there
#
# The station is icecast2 on 127.0.0.1 (a free port, a generated config) fed by ices2 from three
# generated 20 s songs with distinct tags (as the tests' IcecastRig does; RECIPES.md). Every case
# runs for 60 s; a case that fails (exits early, cannot connect, plays nothing) fails the whole
# benchmark: no numbers are printed for a broken run.
#
# Environment:
#   MOTET_BUILD_DIR  directory with motet (default: swift build -c release --show-bin-path)
#   BENCH_RT_RUNS    repetitions of each 60 s case, interleaved (default 3)
#   BENCH_RADIO_SECONDS  seconds per stream case (default 60; less only for a quick check of the script)
#   BENCH_RADIO_OUTPUTS  the outputs measured (default "null pulse")
#   BENCH_RADIO_PEERS    "no": Motet's cases only (more runs of the stream/local ratio in the same time)
#
# Writes bench/out/radio-raw.tsv and bench/out/radio-summary.md and prints the summary.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
runs=${BENCH_RT_RUNS:-3}
seconds=${BENCH_RADIO_SECONDS:-60}
work=$(mktemp -d /tmp/motet-radio-bench.XXXXXX)
. "$here/lib.sh"
die() { echo "bench: $*" >&2; exit 1; }

missing=()
for tool in gcc sox oggenc ogg123 mpv timeout pulseaudio pactl icecast2 ices2 curl python3; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (run 'make deps-bench')"

bin=${MOTET_BUILD_DIR:-$(cd "$root" && swift build -c release --show-bin-path)}
motet=$bin/motet
[ -x "$motet" ] || die "no release build at $motet (run 'make release' or set MOTET_BUILD_DIR)"

icecast_pid=
ices_pid=
cleanup() {
    [ -n "$ices_pid" ] && kill "$ices_pid" 2>/dev/null
    [ -n "$icecast_pid" ] && kill "$icecast_pid" 2>/dev/null
    stop_private_servers
    rm -rf "$work"
}
trap cleanup EXIT
bench_isolate
mkdir -p "$out"

# --- The songs: three 20 s songs with distinct tags, encoded as bench/make_input.sh encodes.
songs=$out/radio-songs
mkdir -p "$songs"
local_files=()
for n in 1 2 3; do
    f=$songs/song$n.ogg
    if [ ! -s "$f" ]; then
        sox -n -r 44100 -c 2 -b 16 "$work/song$n.wav" \
            synth 20 sine $((110 * (n + 1)))-880 sine 330-660 pinknoise pinknoise \
            tremolo 3 40 remix 1,3 2,4 gain -6 2>/dev/null
        oggenc -Q -q 5 -s $((1234 + n)) -t "Radio bench song $n" -a "Motet bench" -l "Radio bench" \
            "$work/song$n.wav" -o "$f.part"
        mv "$f.part" "$f"
        rm -f "$work/song$n.wav"
    fi
    local_files+=("$f")
done

# --- libcurl's floor: the program alone, then with libcurl loaded and initialised.
gcc -O2 -Wall -Wextra -Werror -o "$out/curl-floor" "$here/floor/curl-floor.c" -ldl
floor_none=$("$out/curl-floor" | awk '/VmHWM/ { print $2 }')
floor_curl=$("$out/curl-floor" curl | awk '/VmHWM/ { print $2 }') || die "curl-floor could not load libcurl.so.4"
[ -n "$floor_none" ] && [ -n "$floor_curl" ] || die "curl-floor printed no VmHWM"
# libcurl's load and initialisation in CPU time (once per stream start): median of 7 pairs.
floor_cpu_us=$(for i in $(seq 7); do
    with=$("$out/curl-floor" curl | awk '/CPU-us/ { print $2 }')
    without=$("$out/curl-floor" | awk '/CPU-us/ { print $2 }')
    echo $((with - without))
done | sort -n | sed -n 4p)
[ -n "$floor_cpu_us" ] || die "curl-floor printed no CPU time"

# --- The station.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
station=$work/station
mkdir -p "$station/logs"
changeowner=
if [ "$(id -u)" = 0 ]; then
    # As root, icecast2 insists on dropping to nobody, who must write its logs.
    chown nobody:nogroup "$station/logs"
    chmod 755 "$work" "$station"
    changeowner="<changeowner><user>nobody</user><group>nogroup</group></changeowner>"
fi
cat > "$station/icecast.xml" <<EOF
<icecast>
  <limits><clients>20</clients><sources>2</sources><queue-size>524288</queue-size>
    <client-timeout>30</client-timeout><header-timeout>15</header-timeout><source-timeout>10</source-timeout>
    <burst-size>65535</burst-size></limits>
  <authentication><source-password>bench-source</source-password>
    <admin-user>admin</admin-user><admin-password>bench-admin</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>$port</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <paths><basedir>/usr/share/icecast2</basedir><webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot><logdir>$station/logs</logdir></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot>$changeowner</security>
</icecast>
EOF
printf '%s\n' "${local_files[@]}" > "$station/playlist.txt"
cat > "$station/ices.xml" <<EOF
<ices>
  <background>0</background>
  <logpath>$station/logs</logpath><logfile>ices.log</logfile><loglevel>2</loglevel><consolelog>0</consolelog>
  <stream>
    <metadata><name>Motet Bench Radio</name><genre>Noise</genre><description>bench/radio.sh</description></metadata>
    <input><module>playlist</module><param name="type">basic</param>
      <param name="file">$station/playlist.txt</param><param name="random">0</param><param name="once">0</param></input>
    <instance><hostname>127.0.0.1</hostname><port>$port</port><password>bench-source</password>
      <mount>/radio.ogg</mount></instance>
  </stream>
</ices>
EOF
url=http://127.0.0.1:$port/radio.ogg
icecast2 -c "$station/icecast.xml" >"$station/icecast.out" 2>&1 &
icecast_pid=$!
for i in $(seq 100); do
    curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/" && break
    kill -0 "$icecast_pid" 2>/dev/null || die "icecast2 did not start: $(tail -3 "$station/icecast.out")"
    sleep 0.1
done
ices2 "$station/ices.xml" >"$station/ices.out" 2>&1 &
ices_pid=$!
on_air() {
    curl -s -m 1.5 -o "$work/sample" "$url" || true
    [ "$(head -c 4 "$work/sample" 2>/dev/null)" = OggS ]
}
for i in $(seq 40); do on_air && break; sleep 0.5; done
on_air || die "the station is not on air at $url (see $station/logs)"

# --- Measuring.
raw=$out/radio-raw.tsv
printf 'case\trun\twall_s\tuser_s\tsys_s\tmaxrss_kib\n' > "$raw"
failed=0

# measure CASE RUN STOPPED(yes|no) COMMAND... : one 60 s run under bench_time.
# STOPPED: the case is stopped by timeout after 60 s (a stream never ends) and must still be
# running then (status 124); else it ends by itself after 60 s of audio (status 0, >= 59 s).
measure() {
    local name=$1 run=$2 stream=$3
    shift 3
    local status=0
    if [ "$stream" = yes ]; then
        bench_time "$work/time" timeout -s TERM "$seconds" "$@" \
            >"$work/stdout" 2>"$work/stderr" || status=$?
        [ "$status" = 124 ] || {
            echo "bench: $name (run $run) stopped before ${seconds}s with status $status: $*" >&2
            tail -5 "$work/stderr" >&2
            failed=1
            return 0
        }
    else
        bench_time "$work/time" timeout -s TERM 120 "$@" \
            >"$work/stdout" 2>"$work/stderr" || status=$?
        [ "$status" = 0 ] || {
            echo "bench: $name (run $run) failed with status $status: $*" >&2
            tail -5 "$work/stderr" >&2
            failed=1
            return 0
        }
    fi
    local wall user sys rss
    read -r wall user sys rss < <(tail -1 "$work/time")
    if awk -v w="$wall" -v m=$((seconds - 1)) 'BEGIN { exit !(w < m) }'; then
        echo "bench: $name (run $run) took only ${wall}s, expected ${seconds}s of real-time playback: $*" >&2
        tail -5 "$work/stderr" >&2
        failed=1
        return 0
    fi
    if grep -qiE '^motet: .*(fail|cannot|lost)|error' "$work/stderr"; then
        echo "bench: $name (run $run) reported an error: $(grep -iE 'fail|cannot|lost|error' "$work/stderr" | head -2)" >&2
        failed=1
        return 0
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$run" "$wall" "$user" "$sys" "$rss" >> "$raw"
    printf '  %-22s run %d: wall %6ss  cpu %5ss  rss %6s KiB\n' "$name" "$run" "$wall" \
        "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')" "$rss"
}

start_private_pulse
export PULSE_SERVER=$pulse_server
quiet_motet=("$motet" --no-config --status quiet)
mpv_flags=(--no-config --really-quiet --no-video --no-terminal)
echo "Radio: ${seconds} s of real-time playback per case, $runs runs each (interleaved); station $url; PulseAudio null sink at $PULSE_SERVER"
for run in $(seq "$runs"); do
    for output in ${BENCH_RADIO_OUTPUTS:-null pulse}; do
        # The songs twice, stopped after 60 s like the stream: each case has then decoded what it
        # played plus what it holds ahead (ring and device, or the station's burst). A run that
        # ends by itself after 60 s of audio has decoded no more than it played: 3-4 s less
        # decoding than the stream's case (up to 0.011 CPU-s in the minute), counted against the
        # stream before.
        measure "motet-local-$output" "$run" yes "${quiet_motet[@]}" --output "$output" "${local_files[@]}" "${local_files[@]}"
        measure "motet-stream-$output" "$run" yes "${quiet_motet[@]}" --output "$output" "$url"
        [ "${BENCH_RADIO_PEERS:-yes}" = no ] && continue
        measure "mpv-stream-$output" "$run" yes mpv "${mpv_flags[@]}" --ao="$output" "$url"
        measure "ogg123-stream-$output" "$run" yes ogg123 -q -d "$output" "$url"
    done
done
[ "$failed" = 0 ] || die "a run failed (above): no numbers for a broken run"

# --- Summary: medians, ratios, goals.
{
    echo "# Radio benchmark (bench/radio.sh)"
    echo
    echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); $runs runs of ${seconds} s each, medians"
    machine_line
    echo "- $("$motet" --version 2>&1 | head -1); $(mpv --version | head -1 | cut -d' ' -f1-2); $(ogg123 --version 2>&1 | head -1); $(icecast2 -v 2>&1 | head -1); $(pulseaudio --version)"
    echo "- stream: icecast2 + ices2 on 127.0.0.1, three 20 s songs (oggenc -q 5) as chained links; local: the same three files"
    echo "- libcurl floor: $floor_curl KiB peak RSS with libcurl loaded and initialised, $floor_none KiB without: +$((floor_curl - floor_none)) KiB; loading and initialising it costs $floor_cpu_us µs of CPU (median of 7), once per stream start"
    echo
    awk -F'\t' -v fc="$floor_curl" -v fn="$floor_none" -v fu="$floor_cpu_us" -v secs="$seconds" "$awk_median"'
        NR > 1 {
            cpu[$1] = cpu[$1] " " ($4 + $5) * 60 / $3
            rss[$1] = rss[$1] " " $6
            if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
        }
        END {
            print "| case | CPU-s per minute | peak RSS (MiB) |"
            print "|---|---:|---:|"
            for (i = 1; i <= n; i++) {
                c[order[i]] = median(cpu[order[i]]); r[order[i]] = median(rss[order[i]])
                printf "| %s | %.3f | %.1f |\n", order[i], c[order[i]], r[order[i]] / 1024
            }
            print ""
            print "| output | stream / local CPU (goal <= 1.10) | stream - local CPU-s/min (libcurl load in it) | stream - local RSS (goal <= libcurl floor + 2 MiB) | Motet / mpv CPU on the stream (goal < 0.33) | Motet / ogg123 CPU on the stream |"
            print "|---|---:|---:|---:|---:|---:|"
            floor = (fc - fn) / 1024
            for (k = 1; k <= 2; k++) {
                o = k == 1 ? "null" : "pulse"
                if (!(("motet-local-" o) in c)) continue
                sc = c["motet-stream-" o]; lc = c["motet-local-" o]
                dr = (r["motet-stream-" o] - r["motet-local-" o]) / 1024
                ratio = sc / lc
                # Without the peers (BENCH_RADIO_PEERS=no) their columns say so.
                peers = ("mpv-stream-" o) in c
                mpv = peers ? sc / c["mpv-stream-" o] : 0; ogg = peers ? sc / c["ogg123-stream-" o] : 0
                printf "| %s | %.2f %s | %+.3f (%.3f) | %+.1f MiB (floor %.1f + 2) %s | %s | %s |\n", o,
                    ratio, ratio <= 1.10 ? "met" : "MISSED", sc - lc, fu / 1e6 * 60 / secs,
                    dr, floor, dr <= floor + 2 ? "met" : "MISSED",
                    peers ? sprintf("%.2f %s", mpv, mpv < 1 / 3 ? "met" : "MISSED") : "not run",
                    peers ? sprintf("%.2f", ogg) : "not run"
            }
        }' "$raw"
} > "$out/radio-summary.md"
cat "$out/radio-summary.md"
