# bench/lib.sh: what the benchmark scripts share, sourced (`. "$here/lib.sh"`), never run.
#
# The one home of the private world a benchmark plays in: no desktop of the caller's (bench_isolate),
# a private PulseAudio with a 44.1 kHz null sink (start_private_pulse), a private session bus
# (start_private_bus) and a private PipeWire with WirePlumber and pipewire-pulse on that bus
# (start_private_pipewire). Everything lives under the caller's scratch directory `$work`;
# stop_private_servers ends what was started (call it from the caller's EXIT trap).
#
# Also the samples of a running player that bench/wakeups.sh and bench/crossfade.sh take: its
# threads' context switches and CPU (threads, grown) and whether it plays on the server
# (playing_stream), over one measurement window (sample_window), and a run that failed (bench_fail).
#
# Variables set: pulse_pid, pulse_server (unix:...), bus_pid, bus_address, pipewire_pids (array:
# pipewire, wireplumber, pipewire-pulse), pipewire_server (unix:... of pipewire-pulse),
# pipewire_runtime (its XDG_RUNTIME_DIR, for native PipeWire clients). PULSE_SERVER is not
# exported: each script says which server a case plays to.

pulse_pid= pulse_server= bus_pid= bus_address= pipewire_server= pipewire_runtime=
pipewire_pids=()

bench_lib_die() { echo "bench: $*" >&2; exit 1; }

# machine_line: the line of every summary that says what machine it ran on, and how busy it was.
machine_line() {
    local cpu
    cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
    echo "- nproc: $(nproc); CPU: ${cpu:-unknown}; kernel: $(uname -r); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# awk_median: the awk function median(LIST), the median of the numbers in the space-separated
# LIST (the mean of the middle two for an even count), for a summary's program to begin with:
# awk … "$awk_median"'PROGRAM'.
# shellcheck disable=SC2034 # used by the scripts that source this file
awk_median='
function median(list,    n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
'

# require_tools TOOL...: dies naming every TOOL that is missing, and libvorbis-dev when vorbisfile's
# pkg-config file is, with the make target that installs them.
require_tools() {
    local missing=() tool
    for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
    pkg-config --exists vorbisfile 2>/dev/null || missing+=("libvorbis-dev")
    [ ${#missing[@]} -eq 0 ] || bench_lib_die "missing: ${missing[*]} (run 'make deps-bench')"
}

# find_motet ROOT: sets bin (MOTET_BUILD_DIR, else ROOT's release bin directory), motet (the binary
# in it) and alt (MOTET_ALT, another motet binary measured beside it, or empty); dies when either
# is not an executable.
find_motet() {
    bin=${MOTET_BUILD_DIR:-$(cd "$1" && swift build -c release --show-bin-path)}
    motet=$bin/motet
    [ -x "$motet" ] || bench_lib_die "no release build at $motet (run 'make release' or set MOTET_BUILD_DIR)"
    alt=${MOTET_ALT:-}
    [ -z "$alt" ] || [ -x "$alt" ] || bench_lib_die "MOTET_ALT=$alt is not an executable"
}

# build_vorbis_loop DIR: the C limit, a plain loop over ov_read_float (bench/vorbis_loop.c), as DIR/vorbis_loop.
build_vorbis_loop() {
    # shellcheck disable=SC2046 # pkg-config's flags are meant to be split
    gcc -O2 -Wall -Wextra -Werror -o "$1/vorbis_loop" "$(dirname "${BASH_SOURCE[0]}")/vorbis_loop.c" \
        $(pkg-config --cflags --libs vorbisfile)
}

# build_opus_loop DIR: the Opus limit, a plain loop over op_read_float (bench/opus_loop.c), as DIR/opus_loop.
build_opus_loop() {
    # shellcheck disable=SC2046 # pkg-config's flags are meant to be split
    gcc -O2 -Wall -Wextra -Werror -o "$1/opus_loop" "$(dirname "${BASH_SOURCE[0]}")/opus_loop.c" \
        $(pkg-config --cflags --libs opusfile)
}

# bench_isolate: nothing of the caller's desktop (no session bus, no sound server, no config);
# HOME and the XDG directories under $work.
bench_isolate() {
    unset DBUS_SESSION_BUS_ADDRESS PULSE_SERVER PULSE_SINK PULSE_RUNTIME_PATH PIPEWIRE_RUNTIME_DIR \
        DISPLAY WAYLAND_DISPLAY MPD_HOST MPD_PORT
    export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/xdg
    mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR"
    chmod 700 "$XDG_RUNTIME_DIR"
}

# wait_for_pulse_server SERVER: true once `pactl info` answers at SERVER (10 s at most).
wait_for_pulse_server() {
    local i
    for i in $(seq 100); do PULSE_SERVER=$1 pactl info >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}

# start_private_pulse [RATE]: PulseAudio under $work/pulse, a stereo null sink at RATE Hz (44100
# unless said) and the native protocol only; its log is $work/pulse/pa.log.
start_private_pulse() {
    local dir=$work/pulse rate=${1:-44100}
    mkdir -p "$dir/run" "$dir/state"
    PULSE_RUNTIME_PATH=$dir/run PULSE_STATE_PATH=$dir/state \
        pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no --log-target="file:$dir/pa.log" \
        -L "module-null-sink sink_name=nullsink rate=$rate channels=2" -L module-native-protocol-unix &
    pulse_pid=$!
    pulse_server=unix:$dir/run/native
    wait_for_pulse_server "$pulse_server" || bench_lib_die "PulseAudio did not start (see $dir/pa.log)"
}

# start_private_bus: a session bus (dbus-daemon --fork) that lets anyone own any name.
start_private_bus() {
    cat > "$work/bus.conf" <<'EOF'
<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy></busconfig>
EOF
    local lines
    lines=$(dbus-daemon --config-file="$work/bus.conf" --fork --print-address=1 --print-pid=1 2>/dev/null)
    bus_address=$(sed -n 1p <<<"$lines")
    bus_pid=$(sed -n 2p <<<"$lines")
    [ -n "$bus_pid" ] || bench_lib_die "dbus-daemon did not start"
}

# start_private_pipewire: pipewire, wireplumber and pipewire-pulse with their own runtime directory
# ($work/pipewire) on the private bus (started here if need be), with PipeWire's defaults (a 48 kHz
# graph driven by WirePlumber's dummy "auto_null" sink, as on a desktop without a card). Returns
# once pipewire-pulse answers and a sink exists, plus 2 s for WirePlumber's start-up scripts.
start_private_pipewire() {
    [ -n "$bus_pid" ] || start_private_bus
    pipewire_runtime=$work/pipewire
    mkdir -p "$pipewire_runtime"
    chmod 700 "$pipewire_runtime"
    local name i
    for name in pipewire wireplumber pipewire-pulse; do
        XDG_RUNTIME_DIR=$pipewire_runtime DBUS_SESSION_BUS_ADDRESS=$bus_address "$name" >"$work/$name.log" 2>&1 &
        pipewire_pids+=($!)
        [ "$name" = pipewire ] && sleep 0.5
    done
    pipewire_server=unix:$pipewire_runtime/pulse/native
    wait_for_pulse_server "$pipewire_server" || bench_lib_die "pipewire-pulse did not start (see $work/pipewire-pulse.log)"
    for i in $(seq 100); do PULSE_SERVER=$pipewire_server pactl list short sinks 2>/dev/null | grep -q . && break; sleep 0.1; done
    sleep 2
}

# stop_private_servers: ends whatever the functions above started.
stop_private_servers() {
    local p
    for p in "${pipewire_pids[@]}" $pulse_pid; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
    [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null
    pipewire_pids=() pulse_pid= bus_pid=
    return 0
}

# bench_time FILE COMMAND...: runs COMMAND and writes "WALL USER SYS MAXRSS_KIB" to FILE, as
# `/usr/bin/time -f '%e %U %S %M'` does but to the microsecond (GNU time rounds CPU to 10 ms, as
# much as a tenth of a player's minute); returns the command's status. The CPU and peak RSS are
# wait4's: the command and the descendants it waited for (timeout's child).
bench_time() {
    local file=$1
    shift
    python3 -c '
import os, sys, time
file, argv = sys.argv[1], sys.argv[2:]
start = time.monotonic()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(file, "w") as f:
    f.write(f"{time.monotonic() - start:.3f} {usage.ru_utime:.6f} {usage.ru_stime:.6f} {usage.ru_maxrss}\n")
sys.exit(os.waitstatus_to_exitcode(status))
' "$file" "$@"
}

# threads PID...: "TID VOLUNTARY INVOLUNTARY CPU_NS NAME" per thread of the processes (NAME:
# /proc/PID/task/TID/comm, spaces as _).
threads() {
    local p t
    for p in "$@"; do
        for t in /proc/"$p"/task/*; do
            { awk -v tid="${t##*/}" '/^voluntary_ctxt_switches/ { v = $2 } /^nonvoluntary_ctxt_switches/ { n = $2 }
                  END { printf "%s %s %s ", tid, v, n }' "$t/status" && awk '{ printf "%s ", $1 }' "$t/schedstat" &&
                  tr ' ' _ < "$t/comm"; } 2>/dev/null || true
        done
    done
}
# grown BEFORE AFTER: "VOLUNTARY INVOLUNTARY CPU_SECONDS" between two `threads` samples (a thread
# born in between counts in full).
grown() {
    awk 'NR == FNR { v[$1] = $2; n[$1] = $3; c[$1] = $4; next }
         NF >= 4 { dv += $2 - v[$1]; dn += $3 - n[$1]; dc += $4 - c[$1] }
         END { printf "%d %d %.4f\n", dv, dn, dc / 1e9 }' "$1" "$2"
}
# playing_stream PID: true when the server (PULSE_SERVER) has an uncorked stream from process PID.
playing_stream() {
    pactl list sink-inputs 2>/dev/null | awk -v pid="$1" '
        /^Sink Input #/ { corked = ""; mine = 0 }
        /Corked: no/ { corked = "no" }
        /application.process.id = / { gsub(/"/, "", $3); if ($3 == pid) mine = 1 }
        /^$/ { if (mine && corked == "no") found = 1 }
        END { if (mine && corked == "no") found = 1; exit !found }'
}

# bench_fail CASE RUN WHY: a run that failed, said on stderr (as "$bench_name: …", with the
# player's last lines in $work/stderr) and listed in $failures, not in the medians; a player still
# running ($player_pid) is ended.
bench_fail() {
    echo "$bench_name: $1 (run $2) failed: $3" >&2
    [ -s "$work/stderr" ] && tail -3 "$work/stderr" >&2
    printf -- '- %s (run %s): %s\n' "$1" "$2" "$3" >> "$failures"
    if [ -n "$player_pid" ]; then
        # A player that ended by itself is gone already: kill fails, and must not end the script.
        kill "$player_pid" 2>/dev/null || true
        wait "$player_pid" 2>/dev/null || true
        player_pid=
    fi
}

# sample_window CASE RUN STREAM SERVER_PID...: the measurement window of the player started in the
# background ($player_pid). After $warmup s it must still run and, with STREAM "yes", play an
# uncorked stream on the server (PULSE_SERVER); its threads' and the SERVER_PIDs' are then sampled
# into $work/p0 and $work/s0, and again after $seconds s into $work/p1 and $work/s1, when it must
# still run (and play). Sets window_seconds (the window's length, measured) and peak_rss_kib (its
# VmHWM at the end). Returns 1, after bench_fail, when the run failed.
sample_window() {
    local name=$1 run=$2 stream=$3
    shift 3
    sleep "$warmup"
    if ! kill -0 "$player_pid" 2>/dev/null; then
        local status=0
        wait "$player_pid" 2>/dev/null || status=$?
        player_pid=
        bench_fail "$name" "$run" "ended during the warm-up (status $status): $(tail -1 "$work/stderr")"
        return 1
    fi
    if [ "$stream" = yes ] && ! playing_stream "$player_pid"; then
        bench_fail "$name" "$run" "no uncorked stream of PID $player_pid on the server after ${warmup} s"
        return 1
    fi
    threads "$player_pid" > "$work/p0"; threads "$@" > "$work/s0"
    local t0 t1
    t0=$(date +%s.%N)
    sleep "$seconds"
    threads "$player_pid" > "$work/p1" || true; threads "$@" > "$work/s1"
    t1=$(date +%s.%N)
    peak_rss_kib=$(awk '/^VmHWM/ { print $2 }' "/proc/$player_pid/status" 2>/dev/null || true)
    if ! kill -0 "$player_pid" 2>/dev/null; then
        bench_fail "$name" "$run" "ended during the measurement: $(tail -1 "$work/stderr")"
        return 1
    fi
    if [ "$stream" = yes ] && ! playing_stream "$player_pid"; then
        bench_fail "$name" "$run" "no uncorked stream of PID $player_pid on the server at the end"
        return 1
    fi
    window_seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
}
