#!/usr/bin/env bash
# The web delegate's cost (issue #24): resident memory and CPU-seconds per minute of real-time
# playback on the null output, with no page open, 1 and 50 event-stream clients, beside motet
# without the web delegate, all four side by side in one run (so the machine's load is the same
# for each). Also the context switches of the delegate's two threads (libmicrohttpd's polling
# thread, MHD-single, and web-broadcast): with no client they must not wake at all.
#
#   bench/web.sh            # a release build (make release); MOTET_BUILD_DIR=DIR for another
#
# Environment: MOTET_BUILD_DIR (default: the release bin dir), WEB_SECONDS (60), WEB_WARMUP (5).
# CPU is the nanoseconds on CPU of all threads (/proc/PID/task/*/schedstat) over the window, per
# minute; RSS is VmRSS at the end of the window.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${MOTET_BUILD_DIR:-$(swift build -c release --show-bin-path)}
WINDOW=${WEB_SECONDS:-60}
WARMUP=${WEB_WARMUP:-5}
T=$(mktemp -d /tmp/motet-bench-web.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$T"; }
trap cleanup EXIT

sox -n -r 44100 -c 2 -b 16 "$T/long.wav" synth $((WINDOW + WARMUP + 30)) sine 440 2>/dev/null
oggenc -Q -t Long -a Band -l Record "$T/long.wav" -o "$T/long.ogg"

# start NAME [ARGS…]: motet on the null output with a private home; prints its pid.
start() {
  local name=$1; shift
  mkdir -p "$T/$name"
  HOME=$T/$name XDG_STATE_HOME=$T/$name/state XDG_CACHE_HOME=$T/$name/cache XDG_RUNTIME_DIR=$T/$name \
    "$BIN/motet" --no-config --plugin-dir "$BIN" --status quiet --output null "$@" "$T/long.ogg" >"$T/$name.out" 2>"$T/$name.err" &
  echo $!
}

# clients PORT N: N event-stream clients that read everything until killed.
clients() {
  /usr/bin/python3 - "$1" "$2" >/dev/null <<'PY' &
import selectors, socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", port)).close(); break
    except OSError: time.sleep(0.1)
sel = selectors.DefaultSelector()
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    sel.register(s, selectors.EVENT_READ)
while True:
    for key, _ in sel.select():
        if not key.fileobj.recv(65536): sel.unregister(key.fileobj)
PY
  echo $!
}

cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
# switches PID [THREAD-NAME…]: voluntary + involuntary context switches of those threads (all when none).
switches() {
  local pid=$1; shift; local total=0 t name n
  for t in /proc/"$pid"/task/*; do
    name=$(cat "$t/comm" 2>/dev/null) || continue
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    n=$(awk '/ctxt_switches/ {s += $2} END {print s + 0}' "$t/status" 2>/dev/null || echo 0)
    total=$((total + n))
  done
  echo "$total"
}

declare -A pid
pid[none]=$(start none)
pid[web-0]=$(start web-0 --plugin web:listen=127.0.0.1:16690)
pid[web-1]=$(start web-1 --plugin web:listen=127.0.0.1:16691)
pid[web-50]=$(start web-50 --plugin web:listen=127.0.0.1:16692)
pids+=("${pid[@]}")
pids+=("$(clients 16691 1)" "$(clients 16692 50)")
sleep "$WARMUP"

declare -A cpu0 sw0 web0
for c in none web-0 web-1 web-50; do
  cpu0[$c]=$(cpu_ns "${pid[$c]}"); sw0[$c]=$(switches "${pid[$c]}"); web0[$c]=$(switches "${pid[$c]}" MHD-single web-broadcast)
done
sleep "$WINDOW"
printf '| case | RSS (KiB) | CPU-s/min | wake-ups/s (all threads) | web threads\x27 switches in %s s |\n|---|---|---|---|---|\n' "$WINDOW"
for c in none web-0 web-1 web-50; do
  p=${pid[$c]}
  kill -0 "$p" 2>/dev/null || { echo "motet ($c) ended early: $(cat "$T/$c.err")" >&2; exit 1; }
  rss=$(awk '/VmRSS/ {print $2}' /proc/"$p"/status)
  cpu=$(( $(cpu_ns "$p") - cpu0[$c] ))
  sw=$(( $(switches "$p") - sw0[$c] ))
  web=$(( $(switches "$p" MHD-single web-broadcast) - web0[$c] ))
  awk -v c="$c" -v rss="$rss" -v cpu="$cpu" -v w="$WINDOW" -v sw="$sw" -v web="$web" \
    'BEGIN {printf "| %s | %d | %.4f | %.2f | %s |\n", c, rss, cpu / 1e9 * 60 / w, sw / w, (c == "none" ? "–" : web)}'
done
