#!/usr/bin/env bash
# The floor under the web delegate's memory (issue #24): the two embedded HTTP servers Debian
# offers, each as the least program that serves one answer (bench/http-floor/*.c), beside a C
# program that does nothing. For each: resident memory after one request, the shared libraries it
# maps, and its context switches in 10 s idle (a server must wake nobody). The web delegate cannot
# cost less than its library's line minus the idle one.
#
#   bench/http-floor.sh        (needs libmicrohttpd-dev and libsoup-3.0-dev: make deps-bench)
#
# Exit status 1 when a server does not start or does not answer: no number is printed then.
set -euo pipefail
cd "$(dirname "$0")"
T=$(mktemp -d /tmp/motet-http-floor.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

cc -O2 -Wall -Werror -o "$T/idle" http-floor/idle.c
cc -O2 -Wall -Werror -o "$T/microhttpd" http-floor/microhttpd.c $(pkg-config --cflags --libs libmicrohttpd)
cc -O2 -Wall -Werror -o "$T/soup" http-floor/soup.c $(pkg-config --cflags --libs libsoup-3.0)

switches() { awk '/^voluntary_ctxt_switches/ {s += $2} END {print s}' /proc/"$1"/task/*/status; }

printf '| program | RSS (KiB) | above idle (KiB) | shared libraries | context switches in 10 s idle |\n|---|---:|---:|---:|---:|\n'
port=$((20000 + RANDOM % 20000))
for program in idle microhttpd soup; do
    port=$((port + 1))
    "$T/$program" "$port" >"$T/$program.out" 2>"$T/$program.err" &
    pid=$!
    for _ in $(seq 100); do grep -q ready "$T/$program.out" 2>/dev/null && break; sleep 0.05; done
    grep -q ready "$T/$program.out" || { echo "http-floor.sh: $program did not start: $(cat "$T/$program.err")" >&2; exit 1; }
    if [ "$program" != idle ]; then
        [ "$(curl -s --max-time 5 "http://127.0.0.1:$port/")" = "{}" ] || { echo "http-floor.sh: $program did not answer" >&2; exit 1; }
    fi
    sleep 0.5
    before=$(switches "$pid")
    sleep 10
    after=$(switches "$pid")
    rss=$(awk '/^VmRSS/ {print $2}' /proc/"$pid"/status)
    libraries=$(awk '$6 ~ /\.so/ {print $6}' /proc/"$pid"/maps | sort -u | wc -l)
    [ "$program" = idle ] && idle_rss=$rss
    printf '| %s | %s | %s | %s | %s |\n' "$program" "$rss" $((rss - idle_rss)) "$libraries" $((after - before))
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
done
