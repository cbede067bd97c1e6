#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Tests/Fuzz and runs each for SECONDS_PER_TARGET seconds.
#
#   bench/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]     (default 60; targets: picture comments decode
#                                                      config pluginspec playlist http; default all)
#   bench/fuzz.sh --fixed [TARGET…]                  the landing gate (`make test`): each target a
#                                                      fixed number of executions (RUNS below) with
#                                                      seed 1, from the seeds only (a fresh corpus),
#                                                      so two runs of the same tree do the same thing
#
# Environment: FUZZ_DIR (default .build/fuzz, git-ignored: binaries, seeds, corpora, crashes, logs;
# the corpora grow from run to run), SWIFTC (default swiftc). Targets run one after another, one
# process each.
# Each harness is one executable: the sources of the module it exercises compiled together with
# the harness file (so it reaches internal types), instrumented with -sanitize=fuzzer,address.
# Seeds come from bench/fuzz-seeds.sh; crashes land in $FUZZ_DIR/crashes/TARGET/ (copy one to
# Tests/Fuzz/regressions/TARGET-NAME once fixed: it is replayed before every run). The last line
# of each target's libFuzzer log ("Done N runs in S second(s)") is collected in
# $FUZZ_DIR/summary.txt. Exit status 1 when any target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FIXED=no
if [ "${1:-}" = --fixed ]; then FIXED=yes; shift; SECONDS_PER_TARGET=0; else SECONDS_PER_TARGET=${1:-60}; shift || true; fi
# Executions per target in --fixed mode: 3-10 s each on a quiet development machine (decode is
# ~1,500 files/s, the text parsers 15,000-80,000 inputs/s under ASan).
declare -A RUNS=([picture]=400000 [comments]=100000 [decode]=6000 [config]=50000 [pluginspec]=100000 [playlist]=200000 [http]=100000)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(picture comments decode config pluginspec playlist http)
FUZZ_DIR=${FUZZ_DIR:-$ROOT/.build/fuzz}
SWIFTC=${SWIFTC:-swiftc}
BIN=$FUZZ_DIR/bin
mkdir -p "$BIN" "$FUZZ_DIR/logs"

FLAGS=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -warnings-as-errors)
DECODING_SOURCES=(Sources/MotetCore/Decoding/*.swift)
CONFIG_SOURCES=(Sources/MotetCore/Configuration/*.swift Sources/MotetCore/Configuration/*/*.swift)

# MotetEvents: the one engine module the decoding and configuration sources import; built once
# (again when its sources change) as a module + object.
build_events() {
    local stamp=$BIN/MotetEvents.o
    if [ -z "$(find Sources/MotetCore/Events -newer "$stamp" -name '*.swift' 2>/dev/null)" ] && [ -f "$stamp" ]; then return; fi
    "$SWIFTC" "${FLAGS[@]}" -module-name MotetEvents -emit-module -emit-module-path "$BIN/MotetEvents.swiftmodule" \
        -wmo -c Sources/MotetCore/Events/*.swift -o "$stamp" >"$FUZZ_DIR/logs/build-events.log" 2>&1 ||
        { cat "$FUZZ_DIR/logs/build-events.log" >&2; exit 2; }
}

build() {
    local target=$1 harness sources=() extra=()
    case $target in
        picture) harness=PictureFuzz ;;
        comments) harness=CommentFuzz ;;
        decode) harness=DecodeFuzz ;;
        config) harness=ConfigFuzz ;;
        pluginspec) harness=PluginSpecFuzz ;;
        playlist) harness=PlaylistFuzz ;;
        http) harness=HTTPHeaderFuzz ;;
        *) echo "fuzz.sh: unknown target '$target'" >&2; exit 2 ;;
    esac
    build_events
    case $target in
        picture | comments | decode)
            sources=("${DECODING_SOURCES[@]}")
            extra=(-module-name MotetDecoding -I "$BIN" -I Sources/CVorbisFile "$BIN/MotetEvents.o"
                -lvorbisfile -lvorbis -logg) ;;
        http)  # the network layer's pure parts (the rest needs libcurl)
            sources=(Sources/MotetCore/Network/{ResponseHead,ContentCheck,NetworkError,NetworkOptions}.swift)
            extra=(-module-name MotetNetwork -I "$BIN" "$BIN/MotetEvents.o") ;;
        *)
            sources=("${CONFIG_SOURCES[@]}")
            extra=(-module-name MotetConfiguration -I "$BIN" "$BIN/MotetEvents.o") ;;
    esac
    echo "fuzz.sh: building $target" >&2
    # ld.gold warns about every ASan helper it cannot export: the log keeps them out of sight.
    "$SWIFTC" "${FLAGS[@]}" "${extra[@]}" "${sources[@]}" "Tests/Fuzz/$harness.swift" -o "$BIN/fuzz-$target" \
        >"$FUZZ_DIR/logs/build-$target.log" 2>&1 || { grep -v 'Cannot export local symbol' "$FUZZ_DIR/logs/build-$target.log" >&2; exit 2; }
}

[ -d "$FUZZ_DIR/seeds" ] || bench/fuzz-seeds.sh "$FUZZ_DIR/seeds"

status=0
: >"$FUZZ_DIR/summary.txt"
for target in "${TARGETS[@]}"; do
    build "$target"
    corpus=$FUZZ_DIR/corpus/$target
    crashes=$FUZZ_DIR/crashes/$target
    if [ $FIXED = yes ]; then corpus=$FUZZ_DIR/corpus-fixed/$target; rm -rf "$corpus"; fi
    mkdir -p "$corpus" "$crashes"
    dict=()
    [ -f "Tests/Fuzz/$target.dict" ] && dict=(-dict="Tests/Fuzz/$target.dict")
    max_len=4096
    [ "$target" = decode ] && max_len=65536
    log=$FUZZ_DIR/logs/$target.log
    # Inputs that crashed a target once (Tests/Fuzz/regressions/TARGET-*) are replayed first.
    regressions=(Tests/Fuzz/regressions/"$target"-*)
    if [ -e "${regressions[0]}" ] && ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
        "$BIN/fuzz-$target" "${regressions[@]}" >"$FUZZ_DIR/logs/$target-regressions.log" 2>&1; then
        printf '%-11s a saved crash input crashes again (see %s)\n' "$target" "$FUZZ_DIR/logs/$target-regressions.log" |
            tee -a "$FUZZ_DIR/summary.txt"
        status=1
        continue
    fi
    if [ $FIXED = yes ]; then
        # Swift seeds its hashing at random per process: fixed here, or Set/Dictionary order (and
        # so coverage, and so which inputs are kept) would differ from run to run.
        export SWIFT_DETERMINISTIC_HASHING=1
        budget=(-runs="${RUNS[$target]}" -seed=1)
        echo "fuzz.sh: running $target for ${RUNS[$target]} executions (seed 1)" >&2
    else
        budget=(-max_total_time="$SECONDS_PER_TARGET")
        echo "fuzz.sh: running $target for ${SECONDS_PER_TARGET}s" >&2
    fi
    # SWIFT_BACKTRACE=enable=no: libFuzzer, not Swift's backtracer, reports a crash and saves the input.
    if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$BIN/fuzz-$target" "${dict[@]}" \
        "${budget[@]}" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "$FUZZ_DIR/seeds/$target" >"$log" 2>&1
    then
        result=ok
    else
        result="CRASH (see $log and $crashes)"
        status=1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "$SECONDS_PER_TARGET")
    if [ "$result" = ok ] && [ $FIXED = yes ] && [ "$runs" != "${RUNS[$target]}" ]; then
        result="STOPPED EARLY after $runs of ${RUNS[$target]} executions (see $log)"
        status=1
    fi
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    printf '%-11s %s runs in %s s, %s, %s\n' "$target" "$runs" "$secs" "$cov" "$result" | tee -a "$FUZZ_DIR/summary.txt"
done
exit $status
