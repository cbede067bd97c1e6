#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Tests/Fuzz and runs each for SECONDS_PER_TARGET seconds.
#
#   bench/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]     (default 60; targets: picture comments decode
#                                                      opus config pluginspec playlist pls xspf http wire web; default all)
#   bench/fuzz.sh --fixed [TARGET…]                  the landing gate (`make test`): each target a
#                                                      fixed number of executions (RUNS below) with
#                                                      seed 1, from the seeds only (a fresh corpus),
#                                                      so two runs of the same tree do the same thing
#
# Environment: FUZZ_DIR (default .build/fuzz, git-ignored: binaries, seeds, corpora, crashes, logs;
# the corpora grow from run to run), SWIFTC (default swiftc), JOBS (default: the number of cores):
# how many targets are built and run at once, one process each.
# Each harness is one executable: the sources of the module it exercises compiled together with
# the harness file (so it reaches internal types), instrumented with -sanitize=fuzzer,address; the
# five configuration harnesses `@testable import` the configuration module instead, built once.
# Seeds come from bench/fuzz-seeds.sh; crashes land in $FUZZ_DIR/crashes/TARGET/ (copy one to
# Tests/Fuzz/regressions/TARGET-NAME once fixed: it is replayed before every run). The last line
# of each target's libFuzzer log ("Done N runs in S second(s)") is collected in
# $FUZZ_DIR/summary.txt. Exit status 1 when any target crashed, 2 when one did not build.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FIXED=no
if [ "${1:-}" = --fixed ]; then FIXED=yes; shift; SECONDS_PER_TARGET=0; else SECONDS_PER_TARGET=${1:-60}; shift || true; fi
# Executions per target in --fixed mode: about 5 s each on a busy 2-core machine (decode is
# ~3,000 files/s, the text parsers 2,000-20,000 inputs/s under ASan): a landing gate, not a
# search (that is `make fuzz`).
declare -A RUNS=([picture]=100000 [comments]=40000 [decode]=6000 [opus]=6000 [config]=10000 [pluginspec]=100000 [playlist]=100000 [pls]=25000 [xspf]=25000 [http]=70000 [wire]=60000 [web]=60000)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(picture comments decode opus config pluginspec playlist pls xspf http wire web)
FUZZ_DIR=${FUZZ_DIR:-$ROOT/.build/fuzz}
SWIFTC=${SWIFTC:-swiftc}
BIN=$FUZZ_DIR/bin
mkdir -p "$BIN" "$FUZZ_DIR/logs"

FLAGS=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -warnings-as-errors -package-name motet)
DECODING_SOURCES=(Sources/MotetCore/Decoding/*.swift)
CONFIG_SOURCES=(Sources/MotetCore/Configuration/*.swift Sources/MotetCore/Configuration/*/*.swift)

# The engine modules the harnesses import, each built once (again when its sources change) as a
# module + object, in dependency order: MotetSystem, MotetEvents, MotetNetwork (with the CNetwork
# shim, which loads libcurl only when called, through CLibraryLoader), MotetConfiguration.
newer() { [ -f "$1" ] && [ -z "$(find "${@:2}" -newer "$1" \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) 2>/dev/null)" ]; }
build_module() {
    local name=$1 log=$FUZZ_DIR/logs/build-$1.log
    shift
    "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -I "$BIN" -emit-module -emit-module-path "$BIN/$name.swiftmodule" \
        -wmo -c "$@" -o "$BIN/$name.o" >"$log" 2>&1 || { cat "$log" >&2; exit 2; }
}
# build_c_shim NAME SOURCE HEADER INCLUDE_DIR...: a C target's object, $BIN/NAME.o, built with the
# toolchain's clang under the same sanitizer (its log: build-name.log); with a HEADER (empty: none),
# also the module map that lets the Swift sources import it as module NAME.
build_c_shim() {
    local name=$1 source=$2 header=$3 log=$FUZZ_DIR/logs/build-${1,,}.log
    shift 3
    if [ -n "$header" ]; then
        mkdir -p "$BIN/$name"
        printf 'module %s {\n    header "%s/%s"\n    export *\n}\n' "$name" "$ROOT" "$header" >"$BIN/$name/module.modulemap"
    fi
    "$(dirname "$(command -v "$SWIFTC")")/clang" -fsanitize=address -O1 -g -c "${@/#/-I}" "$source" -o "$BIN/$name.o" >"$log" 2>&1 ||
        { cat "$log" >&2; exit 2; }
}
# CLibraryLoader (dlopen on first use), which the CNetwork and CSoxr shims call: its object.
build_library_loader() {
    newer "$BIN/CLibraryLoader.o" Sources/CLibraryLoader && return
    build_c_shim CLibraryLoader Sources/CLibraryLoader/motet_library.c "" Sources/CLibraryLoader/include
}
build_events() {
    build_library_loader
    newer "$BIN/MotetSystem.o" Sources/MotetCore/System || build_module MotetSystem Sources/MotetCore/System/*.swift
    newer "$BIN/MotetEvents.o" Sources/MotetCore/System Sources/MotetCore/Events ||
        build_module MotetEvents Sources/MotetCore/Events/*.swift
    if ! newer "$BIN/MotetNetwork.o" Sources/MotetCore/System Sources/MotetCore/Events Sources/MotetCore/Network Sources/CNetwork Sources/CLibraryLoader; then
        build_c_shim CNetwork Sources/CNetwork/motet_curl.c Sources/CNetwork/include/motet_curl.h \
            Sources/CNetwork/include Sources/CLibraryLoader/include
        build_module MotetNetwork -I "$BIN/CNetwork" Sources/MotetCore/Network/*.swift
    fi
}
# CSoxr (the decoding sources' Resampler calls libsoxr through it, loaded on demand): its module
# map and its object, built once (again when it changes). It links with CLibraryLoader.o, which
# NETWORK_OBJECTS brings.
build_csoxr() {
    newer "$BIN/CSoxr.o" Sources/CSoxr Sources/CLibraryLoader && return
    build_c_shim CSoxr Sources/CSoxr/motet_soxr.c Sources/CSoxr/include/motet_soxr.h Sources/CSoxr/include Sources/CLibraryLoader/include
}
# What a harness links beside its own sources: the modules above.
ENGINE_OBJECTS=("$BIN/MotetSystem.o" "$BIN/MotetEvents.o")
NETWORK_OBJECTS=("$BIN/MotetNetwork.o" "$BIN/CNetwork.o" "$BIN/CLibraryLoader.o" -ldl)

# MotetConfiguration: the configuration sources, which five targets exercise, built once (again
# when they or the modules it imports change) with -enable-testing: those harnesses `@testable import` it.
build_config() {
    local stamp=$BIN/MotetConfiguration.o
    if newer "$stamp" Sources/MotetCore/Configuration Sources/MotetCore/Events Sources/MotetCore/System Sources/MotetCore/Network; then
        return
    fi
    echo "fuzz.sh: building the configuration module" >&2
    "$SWIFTC" "${FLAGS[@]}" -enable-testing -module-name MotetConfiguration -I "$BIN" -I "$BIN/CNetwork" -emit-module \
        -emit-module-path "$BIN/MotetConfiguration.swiftmodule" -wmo -c "${CONFIG_SOURCES[@]}" -o "$stamp" \
        >"$FUZZ_DIR/logs/build-configuration.log" 2>&1 || { cat "$FUZZ_DIR/logs/build-configuration.log" >&2; return 2; }
}

# The web target's support: MotetPluginKit as a module (over the public header) and the embedded page.
build_web_support() {
    local dir=$BIN/web clang
    clang=$(dirname "$(command -v "$SWIFTC")")/clang
    mkdir -p "$dir/MotetPluginABI" "$dir/WebPage"
    printf 'module MotetPluginABI {\n    header "%s/Sources/MotetPluginABI/include/motet/plugin.h"\n    export *\n}\n' "$ROOT" \
        >"$dir/MotetPluginABI/module.modulemap"
    printf 'module WebPage {\n    header "%s/Plugins/WebPage/include/web_page.h"\n    export *\n}\n' "$ROOT" >"$dir/WebPage/module.modulemap"
    "$clang" -fsanitize=address -O1 -g -c -I Plugins/WebPage/include Plugins/WebPage/web_page.c -o "$dir/web_page.o" \
        >"$FUZZ_DIR/logs/build-web-page.log" 2>&1 || { cat "$FUZZ_DIR/logs/build-web-page.log" >&2; exit 2; }
    "$SWIFTC" "${FLAGS[@]}" -module-name MotetPluginKit -I "$dir/MotetPluginABI" -emit-module \
        -emit-module-path "$dir/MotetPluginKit.swiftmodule" -wmo -c Sources/MotetPluginKit/*.swift -o "$dir/MotetPluginKit.o" \
        >"$FUZZ_DIR/logs/build-web-kit.log" 2>&1 || { cat "$FUZZ_DIR/logs/build-web-kit.log" >&2; exit 2; }
}

build() {
    local target=$1 harness sources=() extra=() helpers=()
    if [ "$target" = wire ]; then
        # The plugin host framing is C: built with the toolchain's clang, same sanitizers.
        echo "fuzz.sh: building wire" >&2
        "$(dirname "$(command -v "$SWIFTC")")/clang" -fsanitize=fuzzer,address -O1 -g -Wall -Werror \
            -I Sources/CPluginWire/include -I Sources/MotetPluginABI/include Sources/CPluginWire/plugin_wire.c \
            Tests/Fuzz/WireFuzz.c -o "$BIN/fuzz-wire" >"$FUZZ_DIR/logs/build-wire.log" 2>&1 ||
            { cat "$FUZZ_DIR/logs/build-wire.log" >&2; exit 2; }
        return
    fi
    case $target in
        picture) harness=PictureFuzz ;;
        comments) harness=CommentFuzz ;;
        decode) harness=DecodeFuzz ;;
        opus) harness=DecodeFuzz ;;  # the same harness, built with -D FUZZ_OPUS below
        config) harness=ConfigFuzz ;;
        pluginspec) harness=PluginSpecFuzz ;;
        playlist) harness=PlaylistFuzz ;;
        pls) harness=PlsFuzz helpers=(Tests/Fuzz/PlaylistFuzzChecks.swift) ;;
        xspf) harness=XspfFuzz helpers=(Tests/Fuzz/PlaylistFuzzChecks.swift) ;;
        http) harness=HTTPHeaderFuzz ;;
        web) harness=WebFuzz ;;
        *) echo "fuzz.sh: unknown target '$target'" >&2; exit 2 ;;
    esac
    case $target in
        picture | comments | decode | opus)
            sources=("${DECODING_SOURCES[@]}")
            # shellcheck disable=SC2046  # pkg-config's words: -I/usr/include/opus
            extra=(-module-name MotetDecoding -I "$BIN" -I "$BIN/CNetwork" -I "$BIN/CSoxr" -I Sources/CVorbisFile -I Sources/COpusFile
                $(pkg-config --cflags-only-I opus) "${ENGINE_OBJECTS[@]}" "${NETWORK_OBJECTS[@]}" "$BIN/CSoxr.o"
                -lvorbisfile -lvorbis -lopusfile -lopus -logg)
            [ "$target" = opus ] && extra+=(-D FUZZ_OPUS) ;;
        http)  # the network layer's pure parts, compiled with the harness (the rest needs libcurl)
            sources=(Sources/MotetCore/Network/{ResponseHead,ContentCheck,NetworkError,NetworkOptions,WebAddress}.swift)
            extra=(-module-name MotetNetworkParts -I "$BIN" "${ENGINE_OBJECTS[@]}") ;;
        web)  # the web delegate's pure parts, on the plugin kit (a module of its own here) and the page
            build_web_support
            sources=(Plugins/Web/{Router,JSONValue,RemoteCommand,AccessPolicy,ListenAddress,HTTPExchange,ArtworkHash,PageFiles}.swift)
            extra=(-module-name WebFuzz -I "$BIN/web" -I "$BIN/web/MotetPluginABI" -I "$BIN/web/WebPage" "$BIN/web/MotetPluginKit.o"
                "$BIN/web/web_page.o") ;;
        *)  # the configuration module, built beside the first targets
            while [ ! -e "$FUZZ_DIR/configuration.status" ]; do sleep 0.2; done
            [ "$(cat "$FUZZ_DIR/configuration.status")" = 0 ] || exit 2
            extra=(-module-name "$harness" -I "$BIN" -I "$BIN/CNetwork" "${ENGINE_OBJECTS[@]}" "${NETWORK_OBJECTS[@]}"
                "$BIN/MotetConfiguration.o") ;;
    esac
    echo "fuzz.sh: building $target" >&2
    # ld.gold warns about every ASan helper it cannot export: the log keeps them out of sight.
    "$SWIFTC" "${FLAGS[@]}" "${extra[@]}" "${sources[@]}" "${helpers[@]}" "Tests/Fuzz/$harness.swift" -o "$BIN/fuzz-$target" \
        >"$FUZZ_DIR/logs/build-$target.log" 2>&1 || { grep -v 'Cannot export local symbol' "$FUZZ_DIR/logs/build-$target.log" >&2; exit 2; }
}

# One target, in a job of its own: build it, replay its saved crash inputs, fuzz it. Its summary
# line goes to $FUZZ_DIR/results/TARGET (and to stdout); exit status 1 when it crashed.
fuzz_target() {
    local target=$1 corpus crashes dict max_len log regressions budget result runs secs cov
    build "$target"
    # The seeds are written by a job of their own, beside the first builds.
    while [ ! -e "$FUZZ_DIR/seeds.status" ]; do sleep 0.2; done
    [ "$(cat "$FUZZ_DIR/seeds.status")" = 0 ] || { echo "fuzz.sh: the seeds could not be written" >&2; exit 2; }
    corpus=$FUZZ_DIR/corpus/$target
    crashes=$FUZZ_DIR/crashes/$target
    if [ $FIXED = yes ]; then corpus=$FUZZ_DIR/corpus-fixed/$target; rm -rf "$corpus"; fi
    mkdir -p "$corpus" "$crashes"
    dict=()
    [ -f "Tests/Fuzz/$target.dict" ] && dict=(-dict="Tests/Fuzz/$target.dict")
    max_len=4096
    [ "$target" = decode ] || [ "$target" = opus ] && max_len=65536
    log=$FUZZ_DIR/logs/$target.log
    # Inputs that crashed a target once (Tests/Fuzz/regressions/TARGET-*) are replayed first.
    regressions=(Tests/Fuzz/regressions/"$target"-*)
    if [ -e "${regressions[0]}" ] && ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 \
        "$BIN/fuzz-$target" "${regressions[@]}" >"$FUZZ_DIR/logs/$target-regressions.log" 2>&1; then
        printf '%-11s a saved crash input crashes again (see %s)\n' "$target" "$FUZZ_DIR/logs/$target-regressions.log" |
            tee "$FUZZ_DIR/results/$target"
        return 1
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
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "$SECONDS_PER_TARGET")
    if [ "$result" = ok ] && [ $FIXED = yes ] && [ "$runs" != "${RUNS[$target]}" ]; then
        result="STOPPED EARLY after $runs of ${RUNS[$target]} executions (see $log)"
    fi
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    printf '%-11s %s runs in %s s, %s, %s\n' "$target" "$runs" "$secs" "$cov" "$result" | tee "$FUZZ_DIR/results/$target"
    [ "$result" = ok ]
}

# Runs a command and then writes its exit status to $FUZZ_DIR/NAME, which jobs wait for.
done_with() {
    local name=$1 rc=0
    shift
    "$@" || rc=$?
    echo $rc >"$FUZZ_DIR/$name.tmp" && mv "$FUZZ_DIR/$name.tmp" "$FUZZ_DIR/$name"
}

rm -rf "$FUZZ_DIR/results" "$FUZZ_DIR/seeds.status" "$FUZZ_DIR/configuration.status"
mkdir -p "$FUZZ_DIR/results"
# The seeds (again when a target was added since they were written), in the background.
seeds_needed=no
for target in "${TARGETS[@]}"; do [ -d "$FUZZ_DIR/seeds/$target" ] || seeds_needed=yes; done
if [ $seeds_needed = yes ]; then
    done_with seeds.status bench/fuzz-seeds.sh "$FUZZ_DIR/seeds" &
else
    echo 0 >"$FUZZ_DIR/seeds.status"
fi
build_events
build_csoxr
for target in "${TARGETS[@]}"; do
    case $target in config | pluginspec | playlist | pls | xspf) done_with configuration.status build_config & break ;; esac
done
# JOBS targets at a time (default: one per core): each build and each run is one single-threaded
# process, so one at a time left a core idle.
JOBS=${JOBS:-$(nproc)}
for target in "${TARGETS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    fuzz_target "$target" &
done
wait
status=0
: >"$FUZZ_DIR/summary.txt"
for target in "${TARGETS[@]}"; do
    if [ -f "$FUZZ_DIR/results/$target" ]; then
        cat "$FUZZ_DIR/results/$target" >>"$FUZZ_DIR/summary.txt"
        grep -q ', ok$' "$FUZZ_DIR/results/$target" || status=1
    else
        printf '%-11s did not build or run (see %s)\n' "$target" "$FUZZ_DIR/logs/build-$target.log" >>"$FUZZ_DIR/summary.txt"
        status=2
    fi
done
echo "fuzz.sh: summary ($FUZZ_DIR/summary.txt):" >&2
cat "$FUZZ_DIR/summary.txt"
exit $status
