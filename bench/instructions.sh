#!/usr/bin/env bash
# Motet's instruction count against libvorbisfile's own limit, the steady figure beside `make
# bench`'s CPU times (which a busy machine makes noise of): valgrind's callgrind counts the
# instructions (Ir) each program runs to decode the 60 s, 44.1 kHz stereo bench input to nothing.
#
#   make bench-instructions         # installs the tools (deps-bench), builds a release, runs this
#   bench/instructions.sh           # the same, when the tools and the release build are already there
#
# With INSTR_CODEC=opus, the same for Ogg Opus: the 60 s bench input encoded at 48 kHz with
# opusenc (128 kbit/s), and the C loop over libopusfile's op_read_float (bench/opus_loop.c).
#
# Programs, one after the other in one run:
#   c-loop   the plain C loop over ov_read_float (bench/vorbis_loop.c, gcc -O2), the limit
#            (Opus: over op_read_float, bench/opus_loop.c)
#   motet    motet --no-config --status quiet --output null --untimed FILE (MOTET_BUILD_DIR)
#   alt      the same with MOTET_ALT, when set
# Each count is the whole run of the process, start-up included, all its threads in one total
# (callgrind --collect-atstart=yes --separate-threads=no: the "summary:" line of its output file).
# Valgrind 3.19 cannot read the DWARF 5 of Swift's binaries ("Possibly corrupted debuginfo file.
# I can't recover."): each motet runs as a copy without its debug sections (strip --strip-debug,
# symbols kept), the same code; its RUNPATH finds the Swift runtime in /opt/swift as before.
# The goal (bench/RESULTS.md): motet at most 2 % over the C loop.
#
# A run that fails (non-zero exit, no callgrind output, no count or a count of zero, the C loop not
# decoding the whole minute, motet counting under 0.9 × the C loop) ends the script with status 1
# and one line saying which, and no table.
#
# Environment:
#   MOTET_BUILD_DIR  directory with motet (default: swift build -c release --show-bin-path)
#   MOTET_ALT        another motet binary (e.g. a build with a proposed change), counted as "alt";
#                    the executable itself, not a wrapper script (it is stripped as above)
#   INSTR_RUNS       runs of each program (default 1; the table gives the median)
#   INSTR_CODEC      vorbis (default) or opus
#
# Installs nothing. Needs (make deps-bench): valgrind gcc pkg-config libvorbis-dev sox vorbis-tools.
# Writes bench/out/instructions.tsv (one line per run) and bench/out/instructions.md (the table and
# the machine), and prints the latter; after a failure neither, and bench/out/instructions-failed.log
# holds what the failed run printed (Opus: instructions-opus.tsv, .md, -failed.log).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$here/out
runs=${INSTR_RUNS:-1}

die() { echo "instructions: $*" >&2; exit 1; }
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$here/lib.sh"

case $runs in '' | *[!0-9]* | 0) die "INSTR_RUNS=$runs is not a positive number" ;; esac
codec=${INSTR_CODEC:-vorbis}
case $codec in vorbis | opus) ;; *) die "INSTR_CODEC=$codec is neither vorbis nor opus" ;; esac
# The Opus figures go to their own files (instructions-opus.md …): both can be kept.
suffix=""
[ "$codec" = vorbis ] || suffix=-$codec
require_tools valgrind gcc strip pkg-config sox oggenc
[ "$codec" = vorbis ] || command -v opusenc >/dev/null 2>&1 || die "missing: opusenc (opus-tools)"
find_motet "$root"

mkdir -p "$out"
# A failed run leaves no table: not even the last run's, which would read as this one's.
rm -f "$out/instructions$suffix.md" "$out/instructions$suffix.tsv" "$out/instructions$suffix-failed.log"
"$here/make_input.sh" "$out"
if [ "$codec" = opus ]; then
    minute=$out/one-minute.opus
    minute_frames=$((60 * 48000))
    build_opus_loop "$out"
    loop=$out/opus_loop
    library="libopusfile $(pkg-config --modversion opusfile), libopus $(pkg-config --modversion opus)"
    input_text="60 s of 48 kHz stereo Ogg Opus (128 kbit/s)"
    limit="plain C loop over op_read_float (the limit)"
else
    minute=$out/one-minute.ogg
    minute_frames=$((60 * 44100))
    build_vorbis_loop "$out"
    loop=$out/vorbis_loop
    library="libvorbis $(pkg-config --modversion vorbis)"
    input_text="60 s of 44.1 kHz stereo"
    limit="plain C loop over ov_read_float (the limit)"
fi

work=$(mktemp -d /tmp/motet-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Nothing of the caller's desktop: no session bus, no sound server, no config.
bench_isolate

# stripped NAME BINARY: a copy of BINARY without debug sections, for valgrind (see above).
stripped() {
    mkdir -p "$work/$1"
    strip --strip-debug -o "$work/$1/motet" "$2" 2>/dev/null || die "could not strip a copy of $2 (not an ELF binary?)"
    echo "$work/$1/motet"
}
motet_run=$(stripped motet "$motet")
alt_run=
[ -z "$alt" ] || alt_run=$(stripped alt "$alt")
# What a failure names: the binary given, not its stripped copy.
declare -A given=([c-loop]="$loop" [motet]="$motet" [alt]="$alt")

raw=$work/instructions$suffix.tsv
printf 'case\trun\tinstructions\n' > "$raw"

# count CASE RUN COMMAND...: COMMAND under callgrind; appends its total Ir to the raw table, or ends
# the script when the run failed in any way (valgrind's and the program's output kept in
# bench/out/instructions$suffix-failed.log).
count() {
    local name=$1 run=$2
    shift 2
    local file=$work/callgrind.$name.$run status=0 what="${given[$name]} ${*:2}"
    echo "  $name, run $run"
    valgrind --tool=callgrind --collect-atstart=yes --separate-threads=no --callgrind-out-file="$file" \
        "$@" >"$work/stdout" 2>"$work/stderr" || status=$?
    cat "$work/stdout" "$work/stderr" > "$out/instructions$suffix-failed.log"
    [ $status -eq 0 ] || die "$name (run $run) failed with status $status (see bench/out/instructions$suffix-failed.log): $what"
    [ -s "$file" ] || die "$name (run $run) left no callgrind output: $what"
    # One "summary:" line per dump; with no client requests there is one, for the whole process.
    local total
    total=$(awk '/^summary:/ { s += $2; n++ } END { if (n > 0) printf "%.0f", s }' "$file")
    case $total in '' | *[!0-9]* | 0) die "$name (run $run) counted no instructions: $what" ;; esac
    printf '%s\t%s\t%s\n' "$name" "$run" "$total" >> "$raw"
    rm -f "$out/instructions$suffix-failed.log"
}

echo "Instructions (callgrind): the 60 s file decoded to nothing, $runs run(s) each"
for run in $(seq "$runs"); do
    count c-loop "$run" "$loop" "$minute"
    # The C loop prints the frames it decoded: all of the minute, or the count means nothing.
    grep -q "^$minute_frames frames" "$work/stdout" || die "c-loop (run $run) did not decode the whole minute: $(head -1 "$work/stdout")"
    count motet "$run" "$motet_run" --no-config --status quiet --output null --untimed "$minute"
    [ -n "$alt" ] && count alt "$run" "$alt_run" --no-config --status quiet --output null --untimed "$minute"
done

# Motet decodes the same file with the same libvorbisfile: far fewer instructions than the C loop
# means it stopped early (e.g. a decode error it survived), not that it is faster.
awk -F'\t' 'NR == 1 { next } $1 == "c-loop" { c[$2] = $3 } $1 != "c-loop" && $3 < 0.9 * c[$2] { print $1 " (run " $2 ")"; exit 1 }' \
    "$raw" >"$work/short" || die "$(cat "$work/short") counted under 0.9 × the C loop's instructions: it cannot have decoded the whole file"
cp "$raw" "$out/instructions$suffix.tsv"

{
    echo "## Machine"
    echo
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); $runs run(s) each (medians)"
    machine_line
    echo "- $("$motet" --version 2>&1 | head -1) ($motet)${alt:+; alt: $("$alt" --version 2>&1 | head -1) ($alt)}"
    echo "- $library; $(valgrind --version); gcc $(gcc -dumpfullversion)"
    echo
    echo "## Instructions: $input_text decoded to nothing (callgrind, whole process)"
    echo
    awk -F'\t' -v limit="$limit" "$awk_median"'
    # millions(N): N instructions as millions with a thousands separator, "1,000.1".
    function millions(n,    s, whole, frac) {
        s = sprintf("%.1f", n / 1e6); whole = s; sub(/\..*/, "", whole); frac = s; sub(/^[^.]*/, "", frac)
        while (whole ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", whole)
        return whole frac
    }
    NR == 1 { next }
    { c = $1; if (!(c in seen)) { order[++n] = c; seen[c] = 1 }; ir[c] = ir[c] " " $3 }
    END {
        label["c-loop"] = limit
        label["motet"] = "motet --output null --untimed"
        label["alt"] = "motet (alt) --output null --untimed"
        for (i = 1; i <= n; i++) I[order[i]] = median(ir[order[i]])
        print "| program | instructions (M) | over the C loop | goal: at most +2 % over the C loop |"
        print "|---|---:|---:|---|"
        for (i = 1; i <= n; i++) {
            c = order[i]
            if (c == "c-loop") { printf "| %s | %s | | |\n", label[c], millions(I[c]); continue }
            over = (I[c] / I["c-loop"] - 1) * 100
            printf "| %s | %s | %+.1f %% (%.3f ×) | %s |\n", label[c], millions(I[c]), over, I[c] / I["c-loop"], over <= 2 ? "met" : "**missed**"
        }
    }' "$raw"
} > "$out/instructions$suffix.md"
cat "$out/instructions$suffix.md"
