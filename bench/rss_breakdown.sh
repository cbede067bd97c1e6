#!/usr/bin/env bash
# Where a running Motet's resident memory is: pmap -x summed per mapped file, plus what merely
# linking libpulse / libasound costs a C program that never calls them (the dlopen question).
# Not part of `make bench`; used for the analysis in bench/history/speed-cpu-rss.md.
#
#   bench/rss_breakdown.sh [MOTET ARGS...]      (default: --output null bench/out/one-minute.ogg)
#   MOTET_BUILD_DIR=...  as for run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${MOTET_BUILD_DIR:-$(cd "$root" && swift build -c release --show-bin-path)}
"$here/make_input.sh" "$here/out" >/dev/null
[ $# -gt 0 ] || set -- --output null "$here/out/one-minute.ogg"

"$bin/motet" --no-config --status quiet "$@" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep 4
echo "== motet $* (pid $pid), after 4 s"
grep -E '^(VmHWM|VmRSS|RssAnon|RssFile|RssShmem|Threads)' "/proc/$pid/status"
grep -E '^Pss:' "/proc/$pid/smaps_rollup" | sed 's/^/proportional (shared pages split): /'
echo "== resident KiB per mapping (file, or [anon]/[stack]/...)"
pmap -x "$pid" | awk 'NR > 2 && $1 ~ /^[0-9a-f]+$/ { name = ($NF == "]") ? "[" $(NF-1) "]" : $NF; rss[name] += $3 } END { for (n in rss) if (rss[n] >= 24) printf "%7d %s\n", rss[n], n }' | sort -rn
kill $pid
wait $pid 2>/dev/null || true
trap - EXIT

echo "== peak RSS of an empty C program, linked with nothing / libpulse / libasound / both (never called)"
probe=$(mktemp -d /tmp/motet-rss.XXXXXX)
cat > "$probe/hwm.c" <<'EOF'
#include <stdio.h>
#include <string.h>
int main(void) {
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM", 5)) fputs(line, stdout);
    return 0;
}
EOF
for libs in "" "-lpulse" "-lasound" "-lpulse -lasound"; do
    gcc -O2 -o "$probe/hwm" "$probe/hwm.c" -Wl,--no-as-needed $libs
    printf '%-18s %s' "${libs:-(nothing)}" "$("$probe/hwm")"
    echo
done
rm -rf "$probe"

echo "== peak RSS of the smallest Swift programs (swiftc -O): the runtime alone, and a libpulse client"
echo "   that only connects (bench/floor/*.swift; the second needs the PulseAudio server this script's"
echo "   caller provides, as for --output pulse)"
floor=$(mktemp -d /tmp/motet-floor.XXXXXX)
for program in swift-floor pulse-floor; do
    swiftc -O "$here/floor/$program.swift" -o "$floor/$program" >/dev/null
    echo "-- $program"
    "$floor/$program"
done
rm -rf "$floor"
