# Shared by the benchmark scripts (source it after setting `work`, a scratch directory):
# a private PulseAudio with a null sink, a private D-Bus session bus, and a process's CPU so far.
# Each start_* sets the variables the caller's cleanup uses (pulse_pid, bus_pid).

die() { echo "bench: $*" >&2; exit 1; }

ticks=$(getconf CLK_TCK)
# CPU seconds (user+sys) a running process has used so far, from /proc/PID/stat.
process_cpu() {
    awk -v t="$ticks" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / t }' "/proc/$1/stat"
}

# A private PulseAudio (null sink at 44.1 kHz stereo) under $work/pulse; exports PULSE_SERVER.
start_pulse() {
    local dir=$work/pulse
    mkdir -p "$dir/run" "$dir/state"
    PULSE_RUNTIME_PATH=$dir/run PULSE_STATE_PATH=$dir/state \
        pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no --log-target="file:$dir/pa.log" \
        -L "module-null-sink sink_name=nullsink rate=44100 channels=2" -L module-native-protocol-unix &
    pulse_pid=$!
    export PULSE_SERVER=unix:$dir/run/native
    local i
    for i in $(seq 100); do pactl info >/dev/null 2>&1 && return 0; sleep 0.1; done
    die "PulseAudio did not start (see $dir/pa.log)"
}

# A private session bus that auto-starts nothing; sets bus_address and bus_pid.
start_bus() {
    cat > "$work/bus.conf" <<'CONF'
<busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy></busconfig>
CONF
    local lines
    lines=$(dbus-daemon --config-file="$work/bus.conf" --fork --print-address=1 --print-pid=1 2>/dev/null)
    bus_address=$(sed -n 1p <<<"$lines")
    bus_pid=$(sed -n 2p <<<"$lines")
    [ -n "$bus_pid" ] || die "dbus-daemon did not start"
}
