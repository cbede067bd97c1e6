#!/usr/bin/env bash
# Motet's wake-up benchmark, measured the way powertop looks at a machine: for WAKE_SECONDS of
# real-time playback (after a warm-up), the wake-ups per second of the player and of the sound
# server, and the CPU time of both, side by side in one run with mpd, mpv and ogg123 playing the
# same 10-minute file into the same private PulseAudio null sink.
#
#   bench/wakeups.sh                 # needs a release build (make release) and make deps-bench
#
# Wake-ups are context switches (voluntary + involuntary) summed over the threads,
# /proc/PID/task/*/status, also shown apart: a voluntary one is the program going to sleep and
# waking again, an involuntary one another job taking the CPU (on a busy machine). CPU is the
# nanoseconds on CPU of all threads (/proc/PID/task/*/schedstat), as precise as /proc/PID/stat
# fields 14 + 15 are coarse (ticks of 10 ms). A thread that ends during the window is counted up
# to its last sample.
#
# Cases (each started on its own, one after the other, then measured over the same window):
#   motet-pulse           motet --status quiet --output pulse
#   motet-pulse-headless  the same with the json and mpris delegates on a private session bus
#   motet-null            motet --status quiet --output null (no sound server involved)
#   alt-*                 the same three with MOTET_ALT (another motet binary, e.g. before a change)
#   mpd                   Debian's Music Player Daemon with a private config (scratch music
#                         directory, db, state and pid files, a pulse audio_output, a port on
#                         127.0.0.1), driven with mpc add / mpc play
#   mpv-pulse             mpv --ao=pulse
#   ogg123-pulse          ogg123 -d pulse
#   motet-pipewire, motet-pipewire-headless, mpd-pipewire, mpv-pipewire
#                         the same players through PipeWire's pipewire-pulse (PipeWire's defaults:
#                         a 48 kHz graph on WirePlumber's dummy sink); the server columns are
#                         pipewire + wireplumber + pipewire-pulse. Left out when PipeWire is not
#                         installed.
# The private servers and bus are started by bench/lib.sh.
#
# A case fails (and the script exits 1 after the others) when the player ends early, or when the
# server shows no uncorked stream of its process at the start or at the end of the window.
#
# Environment: MOTET_BUILD_DIR (default: the release bin dir), MOTET_ALT (a motet binary; its
# delegates are taken from MOTET_BUILD_DIR), WAKE_SECONDS (60), WAKE_WARMUP (5), WAKE_RUNS (1),
# WAKE_CASES (a space-separated subset of the case names above).
# Writes bench/out/wakeups.tsv (one line per run), bench/out/wakeups-threads.tsv (the player's
# context switches per thread, by thread name, for each run) and bench/out/wakeups.md (medians,
# ratios, goals, the machine, the per-thread table of the motet cases), and prints the latter.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
seconds=${WAKE_SECONDS:-60}
warmup=${WAKE_WARMUP:-5}
runs=${WAKE_RUNS:-1}

die() { echo "wakeups: $*" >&2; exit 1; }
bench_name=wakeups

missing=()
for tool in pulseaudio pactl dbus-daemon mpd mpc mpv ogg123 sox oggenc; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] || die "missing: ${missing[*]} (run 'make deps-bench')"

bin=${MOTET_BUILD_DIR:-$(cd "$root" && swift build -c release --show-bin-path)}
motet=$bin/motet
[ -x "$motet" ] || die "no release build at $motet (run 'make release' or set MOTET_BUILD_DIR)"
for p in json mpris; do [ -f "$bin/libmotet-$p.so" ] || die "$bin/libmotet-$p.so missing"; done
alt=${MOTET_ALT:-}
[ -z "$alt" ] || [ -x "$alt" ] || die "MOTET_ALT=$alt is not an executable"

all_cases="motet-pulse motet-pulse-headless motet-null"
[ -n "$alt" ] && all_cases="$all_cases alt-pulse alt-pulse-headless alt-null"
all_cases="$all_cases mpd mpv-pulse ogg123-pulse"
have_pipewire=yes
for tool in pipewire wireplumber pipewire-pulse; do command -v "$tool" >/dev/null 2>&1 || have_pipewire=; done
if [ -n "$have_pipewire" ]; then
    all_cases="$all_cases motet-pipewire motet-pipewire-headless mpd-pipewire mpv-pipewire"
else
    echo "wakeups: PipeWire (pipewire, wireplumber, pipewire-pulse) not installed: no PipeWire rows" >&2
fi
cases=${WAKE_CASES:-$all_cases}

mkdir -p "$out"
"$here/make_input.sh" "$out"
long=$out/ten-minutes.ogg

work=$(mktemp -d /tmp/motet-wakeups.XXXXXX)
. "$here/lib.sh"
player_pid=
cleanup() {
    [ -n "$player_pid" ] && kill "$player_pid" 2>/dev/null && wait "$player_pid" 2>/dev/null
    stop_private_servers
    rm -rf "$work"
}
trap cleanup EXIT
bench_isolate
ticks=$(getconf CLK_TCK)

# per_thread CASE RUN SECONDS BEFORE AFTER: "CASE RUN NAME VOLUNTARY/S INVOLUNTARY/S" per thread
# name (threads of one name summed) between two `threads` samples.
per_thread() {
    awk -v c="$1" -v r="$2" -v s="$3" 'NR == FNR { v[$1] = $2; n[$1] = $3; next }
         NF >= 5 { dv[$5] += $2 - v[$1]; dn[$5] += $3 - n[$1] }
         END { for (t in dv) printf "%s\t%s\t%s\t%.2f\t%.2f\n", c, r, t, dv[t] / s, dn[t] / s }' "$4" "$5"
}
mpd_port=
start_mpd() {
    local dir=$work/mpd
    rm -rf "$dir"
    mkdir -p "$dir/music" "$dir/playlists"
    ln -s "$long" "$dir/music/ten-minutes.ogg"
    mpd_port=$((20000 + RANDOM % 20000))
    cat > "$dir/mpd.conf" <<EOF
music_directory "$dir/music"
playlist_directory "$dir/playlists"
db_file "$dir/db"
state_file "$dir/state"
pid_file "$dir/pid"
log_file "$dir/log"
bind_to_address "127.0.0.1"
port "$mpd_port"
zeroconf_enabled "no"
audio_output {
    type "pulse"
    name "pulse"
}
EOF
    mpd --no-daemon "$dir/mpd.conf" >"$work/stdout" 2>"$work/stderr" &
    player_pid=$!
    local i
    for i in $(seq 100); do mpc -q -h 127.0.0.1 -p "$mpd_port" status >/dev/null 2>&1 && break; sleep 0.1; done
    mpc -q -h 127.0.0.1 -p "$mpd_port" update --wait && mpc -q -h 127.0.0.1 -p "$mpd_port" add ten-minutes.ogg \
        && mpc -q -h 127.0.0.1 -p "$mpd_port" play || return 1
}

# start CASE: starts the player of CASE in the background (to PULSE_SERVER), its PID in player_pid.
start() {
    local quiet=(--no-config --status quiet) delegates=(--plugin-dir "$bin" --plugin "json:path=$work/state.json" --plugin mpris)
    local m=$motet
    case $1 in alt-*) m=$alt ;; esac
    # The PipeWire cases are the PulseAudio ones through pipewire-pulse.
    local player=$1
    case $1 in
        motet-pipewire) player=motet-pulse ;;
        motet-pipewire-headless) player=motet-pulse-headless ;;
        mpd-pipewire) player=mpd ;;
        mpv-pipewire) player=mpv-pulse ;;
    esac
    case $player in
        motet-pulse | alt-pulse) "$m" "${quiet[@]}" --output pulse "$long" >"$work/stdout" 2>"$work/stderr" & ;;
        motet-pulse-headless | alt-pulse-headless)
            DBUS_SESSION_BUS_ADDRESS=$bus_address "$m" "${quiet[@]}" --output pulse "${delegates[@]}" "$long" \
                >"$work/stdout" 2>"$work/stderr" & ;;
        motet-null | alt-null) "$m" "${quiet[@]}" --output null "$long" >"$work/stdout" 2>"$work/stderr" & ;;
        mpv-pulse) mpv --no-config --really-quiet --no-video --no-terminal --ao=pulse "$long" >"$work/stdout" 2>"$work/stderr" & ;;
        ogg123-pulse) ogg123 -q -d pulse "$long" >"$work/stdout" 2>"$work/stderr" & ;;
        mpd) start_mpd; return ;;
        *) die "unknown case $1" ;;
    esac
    player_pid=$!
}

raw=$out/wakeups.tsv
failures=$out/wakeups-failures.md
: > "$failures"
printf 'case\trun\tseconds\tplayer_cpu_s\tplayer_voluntary\tplayer_involuntary\tserver_cpu_s\tserver_voluntary\tserver_involuntary\tpeak_rss_kib\n' > "$raw"
thread_raw=$out/wakeups-threads.tsv
printf 'case\trun\tthread\tvoluntary_per_s\tinvoluntary_per_s\n' > "$thread_raw"

# measure CASE RUN
measure() {
    local name=$1 run=$2 uses_pulse=yes server_pids=$pulse_pid
    case $name in
        *-null) uses_pulse=no server_pids=$pulse_pid ;;
        *-pipewire*) server_pids="${pipewire_pids[*]}" ;;
    esac
    case $name in *-pipewire*) export PULSE_SERVER=$pipewire_server ;; *) export PULSE_SERVER=$pulse_server ;; esac
    if ! start "$name"; then
        bench_fail "$name" "$run" "did not start: $(tail -1 "$work/stderr")"
        return 0
    fi
    # shellcheck disable=SC2086 # the server's PIDs, one word each
    sample_window "$name" "$run" "$uses_pulse" $server_pids || return 0
    kill "$player_pid" 2>/dev/null; wait "$player_pid" 2>/dev/null || true
    player_pid=
    local row pv pn pc sv sn sc
    read -r pv pn pc < <(grown "$work/p0" "$work/p1")
    read -r sv sn sc < <(grown "$work/s0" "$work/s1")
    row=$(printf '%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" "$run" "$window_seconds" \
        "$pc" "$pv" "$pn" "$sc" "$sv" "$sn" "$peak_rss_kib")
    echo "$row" >> "$raw"
    per_thread "$name" "$run" "$window_seconds" "$work/p0" "$work/p1" >> "$thread_raw"
    awk -F'\t' '{ printf "  %-22s run %s: player %5.1f wake-ups/s (%.1f + %.1f), %.3f CPU-s/min; server %5.1f wake-ups/s, %.3f CPU-s/min; %d KiB\n",
        $1, $2, ($5 + $6) / $3, $5 / $3, $6 / $3, $4 * 60 / $3, ($8 + $9) / $3, $7 * 60 / $3, $10 }' <<<"$row"
}

start_private_pulse
start_private_bus
case " $cases " in *-pipewire*) start_private_pipewire ;; esac
echo "Wake-ups: ${seconds} s of real-time playback after ${warmup} s, $runs run(s) each, into a PulseAudio null sink at $pulse_server${pipewire_server:+ and PipeWire at $pipewire_server}"
for run in $(seq "$runs"); do
    for c in $cases; do measure "$c" "$run"; done
done

{
    echo "## Machine"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); ${seconds} s per case after ${warmup} s of warm-up, $runs run(s) each (medians)"
    machine_line
    echo "- $("$motet" --version 2>&1 | head -1); $(mpd --version | head -1); $(mpv --version | head -1 | cut -d' ' -f1-2); $(ogg123 --version 2>&1 | head -1); $(pulseaudio --version)"
    echo
    awk -F'\t' "$awk_median"'
    NR == 1 { next }
    {
        c = $1; if (!(c in seen)) { order[++n] = c; seen[c] = 1 }
        pw[c] = pw[c] " " ($5 + $6) / $3; pv[c] = pv[c] " " $5 / $3; pi[c] = pi[c] " " $6 / $3
        pc[c] = pc[c] " " $4 * 60 / $3
        sw[c] = sw[c] " " ($8 + $9) / $3; sc[c] = sc[c] " " $7 * 60 / $3; rss[c] = rss[c] " " $10 / 1024
    }
    END {
        label["motet-pulse"] = "motet --output pulse --status quiet"
        label["motet-pulse-headless"] = "motet --output pulse --status quiet, json + mpris delegates, private bus"
        label["motet-null"] = "motet --output null --status quiet"
        label["alt-pulse"] = "motet (alt) --output pulse --status quiet"
        label["alt-pulse-headless"] = "motet (alt) --output pulse --status quiet, json + mpris"
        label["alt-null"] = "motet (alt) --output null --status quiet"
        label["mpd"] = "mpd (pulse audio_output, defaults), mpc add + play"
        label["mpv-pulse"] = "mpv --ao=pulse"
        label["ogg123-pulse"] = "ogg123 -d pulse"
        label["motet-pipewire"] = "motet --output pulse --status quiet, PipeWire (pipewire-pulse)"
        label["motet-pipewire-headless"] = "motet --output pulse --status quiet, json + mpris, PipeWire (pipewire-pulse)"
        label["mpd-pipewire"] = "mpd (pulse audio_output), PipeWire (pipewire-pulse)"
        label["mpv-pipewire"] = "mpv --ao=pulse, PipeWire (pipewire-pulse)"
        for (i = 1; i <= n; i++) {
            c = order[i]; PW[c] = median(pw[c]); PV[c] = median(pv[c]); PI[c] = median(pi[c]); PC[c] = median(pc[c])
            SW[c] = median(sw[c]); SC[c] = median(sc[c]); R[c] = median(rss[c])
        }
        print "| player | player wake-ups/s (voluntary + involuntary) | player CPU-s/min | server wake-ups/s | server CPU-s/min | server CPU vs mpd | player CPU vs mpd | player CPU vs mpv | peak RSS MiB |"
        print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
        for (i = 1; i <= n; i++) {
            c = order[i]
            # Against mpd and mpv on the same server.
            m = c ~ /pipewire/ ? "mpd-pipewire" : "mpd"; v = c ~ /pipewire/ ? "mpv-pipewire" : "mpv-pulse"
            vsm = (m in SC && SC[m] > 0 && c !~ /null/) ? sprintf("%.2f", SC[c] / SC[m]) : "-"
            pvm = (m in PC && PC[m] > 0) ? sprintf("%.2f", PC[c] / PC[m]) : "-"
            pvv = (v in PC && PC[v] > 0) ? sprintf("%.2f", PC[c] / PC[v]) : "-"
            srvw = c ~ /null/ ? "-" : sprintf("%.1f", SW[c]); srvc = c ~ /null/ ? "-" : sprintf("%.3f", SC[c])
            printf "| %s | %.1f (%.1f + %.1f) | %.3f | %s | %s | %s | %s | %s | %.1f |\n", (c in label ? label[c] : c), PW[c], PV[c], PI[c], PC[c], srvw, srvc, vsm, pvm, pvv, R[c]
        }
        print ""
        print "The server columns of a null row are the idle server (no stream), not shown. The PipeWire rows are compared with mpd and mpv on PipeWire."
        if ("motet-pulse-headless" in PW && "mpd" in SC && "mpv-pulse" in PC) {
            print ""
            print "Goals (#16):"
            printf "- sound-server CPU serving motet <= mpd'"'"'s: %.3f vs %.3f CPU-s/min: %s\n", SC["motet-pulse"], SC["mpd"], SC["motet-pulse"] <= SC["mpd"] ? "met" : "missed"
            printf "- player CPU on pulse below mpd'"'"'s: %.3f vs %.3f: %s; <= 1/4 of mpv'"'"'s (%.3f): %s\n", PC["motet-pulse"], PC["mpd"], PC["motet-pulse"] < PC["mpd"] ? "met" : "missed", PC["mpv-pulse"], PC["motet-pulse"] <= PC["mpv-pulse"] / 4 ? "met" : "missed"
            printf "- headless wake-ups on pulse <= 4/s: %.1f (%.1f voluntary + %.1f involuntary): %s\n", PW["motet-pulse-headless"], PV["motet-pulse-headless"], PI["motet-pulse-headless"], PW["motet-pulse-headless"] <= 4 ? "met" : "missed"
        }
    }' "$raw"
} > "$out/wakeups.md"
{
    echo
    echo "Motet's context switches per second by thread (medians over runs; threads of one name summed):"
    echo
    echo "| case | thread | voluntary/s | involuntary/s |"
    echo "|---|---|---:|---:|"
    awk -F'\t' "$awk_median"'
    NR == 1 || $1 !~ /^(motet|alt)/ { next }
    { k = $1 "\t" $3; if (!(k in seen)) { order[++n] = k; seen[k] = 1 }; v[k] = v[k] " " $4; i[k] = i[k] " " $5 }
    END { for (j = 1; j <= n; j++) { split(order[j], p, "\t"); printf "| %s | %s | %.2f | %.2f |\n", p[1], p[2], median(v[order[j]]), median(i[order[j]]) } }
    ' "$thread_raw"
} >> "$out/wakeups.md"
if [ -s "$failures" ]; then
    { echo; echo "## Runs that failed (not in the medians)"; echo; cat "$failures"; } >> "$out/wakeups.md"
fi
cat "$out/wakeups.md"
[ ! -s "$failures" ]
