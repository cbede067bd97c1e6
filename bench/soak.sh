#!/usr/bin/env bash
# Motet soak: thousands of short tracks, untimed, with every bundled delegate (log, json, notify,
# mpris) and the chaos plugin (Tests/Soak/chaos-plugin.c) sending random commands from several
# threads, plus a second chaos instance that only records. Checks that nothing crashes, that
# every track's track-finished reaches every recording plugin once and in order, that memory
# stays flat, and that no file descriptor or thread leaks. See bench/SOAK.md.
#
#   make soak                     # release build, 10,000 tracks, writes bench/SOAK.md
#   bench/soak.sh                 # the same, when the release build is already there
#
# Environment:
#   MOTET_BUILD_DIR  directory with motet and libmotet-*.so (default: swift build -c release --show-bin-path)
#   SOAK_TRACKS      playlist entries (default 10000)
#   SOAK_THREADS     chaos sender threads (default 4)
#   SOAK_SEED        chaos seed (default 1)
#   SOAK_REPORT      where to write the report (default bench/SOAK.md; empty: none)
#   SOAK_OUT         raw outputs (default bench/out): soak-samples.tsv, soak-summary.json
#   SOAK_PERIOD      seconds between two samples of RSS, descriptors and threads (default 0.5; 0.1
#                    below 5,000 tracks)
#   SOAK_COMMIT      the commit the build is from, for the report (default: git HEAD of this tree)
#   SOAK_TMP         where the run's files go (default /dev/shm when there is one, else /tmp)
#
# Needs: cc, sox, oggenc, python3, dbus-daemon, busctl, Xvfb, dunst, dunstctl (make deps-test).
# Exit status 0 when every check passed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tracks=${SOAK_TRACKS:-10000}
threads=${SOAK_THREADS:-4}
seed=${SOAK_SEED:-1}
report=${SOAK_REPORT-$here/SOAK.md}
out=${SOAK_OUT:-$here/out}

die() { echo "soak: $*" >&2; exit 2; }

missing=()
for tool in cc sox oggenc python3 dbus-daemon busctl Xvfb dunst dunstctl playerctl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (run 'make deps-test')"

bin=${MOTET_BUILD_DIR:-$(cd "$root" && swift build -c release --show-bin-path)}
motet=$bin/motet
[ -x "$motet" ] || die "no build at $motet (run 'make release' or set MOTET_BUILD_DIR)"
for p in log json notify mpris; do
    [ -f "$bin/libmotet-$p.so" ] || die "$bin/libmotet-$p.so missing"
done
mkdir -p "$out"

# tmpfs when there is one: the json delegate and the ratings file fsync on every change, as they
# would in $XDG_RUNTIME_DIR; the soak measures Motet, not the disk.
# SOAK_TMP=/tmp measures on the disk instead.
base=${SOAK_TMP:-/tmp}
[ -z "${SOAK_TMP:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/motet-soak.XXXXXX")
chmod 700 "$work"
bus_pid= xvfb_pid= dunst_pid= sampler_pid= client_pid= motet_pid=
cleanup() {
    for pid in $sampler_pid $client_pid $motet_pid $dunst_pid $xvfb_pid $bus_pid; do
        kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    [ -n "${SOAK_KEEP:-}" ] && { echo "soak: kept $work" >&2; return; }
    rm -rf "$work"
}
trap cleanup EXIT

# --- the chaos plugin, built the way a third party builds a plugin ---------------------------------
mkdir -m 700 "$work/plugins"
chaos=$work/plugins/chaos.so
cc -O2 -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -Wl,-z,defs \
    -I "$root/Sources/MotetPluginABI/include" -o "$chaos" "$root/Tests/Soak/chaos-plugin.c" -lpthread

# --- four short tracks (different lengths, rates and channel counts: the sink reopens), and a
#     playlist of $tracks entries cycling them. Each entry is its own hard link, so every
#     track-finished names its playlist position. ---------------------------------------------------
mkdir -p "$work/src" "$work/t"
make_track() { # name seconds rate channels frequency title serial
    sox -n -r "$3" -c "$4" -b 16 "$work/src/$1.wav" synth "$2" sine "$5" 2>/dev/null
    oggenc -Q -s "$7" -t "$6" -a "Soak Artist" -l "Soak Album" -o "$work/src/$1.ogg" "$work/src/$1.wav"
}
make_track a 0.2 44100 2 440 "Soak A" 11
make_track b 0.3 44100 2 550 "Soak B" 12
make_track c 0.4 48000 2 660 "Soak C" 13
make_track d 0.5 22050 1 770 "Soak D" 14
python3 - "$work" "$tracks" <<'EOF'
import os, sys
work, n = sys.argv[1], int(sys.argv[2])
names = ["a", "b", "c", "d"]
with open(os.path.join(work, "soak.m3u"), "w") as m3u:
    m3u.write("#EXTM3U\n")
    for i in range(1, n + 1):
        name = "%05d.ogg" % i
        os.link(os.path.join(work, "src", names[(i - 1) % 4] + ".ogg"), os.path.join(work, "t", name))
        m3u.write("t/%s\n" % name)
EOF

# --- a private session bus, and dunst under Xvfb as the notification server --------------------
cat >"$work/bus.conf" <<'EOF'
<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy></busconfig>
EOF
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=1 >"$work/bus.address" 2>"$work/bus.log" &
bus_pid=$!
for _ in $(seq 100); do [ -s "$work/bus.address" ] && break; sleep 0.1; done
export DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$work/bus.address")
[ -n "$DBUS_SESSION_BUS_ADDRESS" ] || die "dbus-daemon did not start: $(cat "$work/bus.log")"

Xvfb -displayfd 1 -screen 0 800x600x24 -nolisten tcp >"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
display=:$(head -n 1 "$work/display")
printf '[global]\n    history_length = 20\n[urgency_normal]\n    timeout = 0\n' >"$work/dunstrc"
DISPLAY=$display dunst -config "$work/dunstrc" >"$work/dunst.log" 2>&1 &
dunst_pid=$!
for _ in $(seq 200); do busctl --user status org.freedesktop.Notifications >/dev/null 2>&1 && break; sleep 0.1; done
busctl --user status org.freedesktop.Notifications >/dev/null 2>&1 || die "dunst did not start: $(cat "$work/dunst.log")"

# --- the run --------------------------------------------------------------------------------------
mkdir -p "$work/home" "$work/run"
chmod 700 "$work/run"
# --skip-disliked no: the chaos plugin dislikes at random and the tracks share their tags.
command=("$motet" --no-config --output null --untimed --status quiet --skip-disliked no
    --plugin "log:path=$work/log.txt"
    --plugin "json:path=$work/run/now-playing.json,events=$work/events.jsonl"
    --plugin notify
    --plugin mpris
    --plugin "$chaos:threads=$threads,seed=$seed,out=$work/chaos.out"
    --plugin "$chaos:out=$work/recorder.out"
    "$work/soak.m3u")
echo "soak: $tracks tracks, $threads chaos threads, seed $seed, in $work" >&2
samples=$out/soak-samples.tsv
period=${SOAK_PERIOD:-$([ "$tracks" -ge 5000 ] && echo 0.5 || echo 0.1)}
started=$(date +%s.%N)
(
    cd "$work"
    exec env HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" XDG_STATE_HOME="$work/home/state" \
        XDG_CACHE_HOME="$work/home/cache" XDG_RUNTIME_DIR="$work/run" PULSE_SERVER=unix:/nonexistent \
        DISPLAY="$display" "${command[@]}"
) >"$work/stdout.txt" 2>"$work/stderr.txt" &
motet_pid=$!

# Every SOAK_PERIOD s: seconds since start, VmRSS, VmHWM (KiB), open fds, threads, tracks finished so far.
(
    printf 'seconds\trss_kib\thwm_kib\tfds\tthreads\tfinished\n'
    while [ -d "/proc/$motet_pid/fd" ]; do
        now=$(date +%s.%N)
        rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$motet_pid/status" 2>/dev/null) || break
        hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$motet_pid/status" 2>/dev/null) || break
        fds=$(ls "/proc/$motet_pid/fd" 2>/dev/null | wc -l)
        tasks=$(ls "/proc/$motet_pid/task" 2>/dev/null | wc -l)
        done_count=$(grep -c '^finished' "$work/recorder.out" 2>/dev/null || true)
        [ -n "$rss" ] && printf '%.2f\t%s\t%s\t%s\t%s\t%s\n' "$(awk "BEGIN{print $now - $started}")" "$rss" "$hwm" "$fds" "$tasks" "${done_count:-0}"
        sleep "$period"
    done
) >"$samples" &
sampler_pid=$!

# A real MPRIS client reads the player all along: playerctl asks for the title and the status
# every 0.2 s; each answer counts.
(
    answers=0
    while kill -0 "$motet_pid" 2>/dev/null; do
        playerctl -p motet metadata --format '{{title}}' >/dev/null 2>&1 && answers=$((answers + 1))
        playerctl -p motet status >/dev/null 2>&1 && answers=$((answers + 1))
        sleep 0.2
    done
    echo "$answers" >"$work/mpris-answers"
) &
client_pid=$!

# The MPRIS delegate must own its name during the run (checked once it is up).
mpris_seen=no
for _ in $(seq 100); do
    busctl --user status org.mpris.MediaPlayer2.motet >/dev/null 2>&1 && { mpris_seen=yes; break; }
    kill -0 "$motet_pid" 2>/dev/null || break
    sleep 0.1
done

set +e
wait "$motet_pid"
status=$?
set -e
motet_pid=
ended=$(date +%s.%N)
wait "$sampler_pid" 2>/dev/null || true
sampler_pid=
wait "$client_pid" 2>/dev/null || true
client_pid=

# dunst received the notify delegate's bubbles (history: closed ones; displayed: the one left).
notifications=$(( $(dunstctl count history 2>/dev/null || echo 0) + $(dunstctl count displayed 2>/dev/null || echo 0) ))
dunst_alive=no
kill -0 "$dunst_pid" 2>/dev/null && dunst_alive=yes

cp "$work/stderr.txt" "$out/soak-stderr.txt"
python3 "$root/Tests/Soak/check.py" \
    --work "$work" --tracks "$tracks" --status "$status" --samples "$samples" \
    --seconds "$(awk "BEGIN{print $ended - $started}")" --mpris "$mpris_seen" --mpris-answers "$(cat "$work/mpris-answers" 2>/dev/null || echo 0)" --notifications "$notifications" \
    --dunst-alive "$dunst_alive" --seed "$seed" --threads "$threads" \
    --command "$(printf '%q ' "${command[@]}")" --summary "$out/soak-summary.json" \
    ${report:+--report "$report"} --raw "${samples#"$root"/}" --commit "${SOAK_COMMIT:-}"
