#!/usr/bin/env bash
# Runs the whole test suite, already built, as `make test-unit` and `make test-tsan` do:
#
#   Tests/run-suite.sh LOG_DIR SWIFT_TEST_ARGUMENTS…    (e.g. --scratch-path .build/tsan)
#
# Swift Testing runs as many tests at once as there are cores (2 on CI), and most integration tests
# wait on real time (a player playing a track, a station reconnecting) while they hold one of
# those threads: one process left the machine idle most of the time (the suite used 0.4 of a core
# under ThreadSanitizer). So the suite runs in two processes side by side, each with its own
# threads: the integration suites, and the other modules with a few integration suites that
# balance the two. The suites that measure time or wake-ups (TIMING_SUITES) then run alone, so
# that nothing else loads the machine while they measure (under a sanitizer most of them are
# skipped, see Tests/IntegrationTests/MeasuresTime.swift).
#
# Each process's output goes to LOG_DIR/NAME.log and is printed when it ends. The exit status is
# 1 when any of them failed. MOTET_BUILD_DIR, MOTET_SANITIZER and LSAN_OPTIONS are passed through.
# SKIP (a regular expression of test identifiers, as `swift test --skip` takes) leaves those tests
# out of every run: `make test`'s AddressSanitizer pass runs a part of the suite (see Makefile).
# FIRST (the same) chooses what the first process runs instead of the integration suites: a pass
# that leaves most of those out balances the two processes with it.
# BUILD_BESIDE (a shell command: the next pass's build) runs at the lowest priority (nice 19) while
# the two processes run, taking only the cores they leave idle, and is waited for before the
# suites that measure time; its output goes to LOG_DIR/beside.log, and its failure fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."
LOG_DIR=$1
shift
ARGS=("$@")
SWIFT=${SWIFT:-swift}
if [ -n "${SKIP:-}" ]; then ARGS+=(--skip "$SKIP"); fi
mkdir -p "$LOG_DIR"

# Suites that measure time or wake-ups (latency bounds, context switches, "within 0.2 s", a
# resume within 0.2 s of the real-time ALSA device's position, a cut's fade out written to the
# sound server within its 40 ms margin).
TIMING_SUITES='IntegrationTests\.(WakeupTests|ALSALatencyTests|PulseLatencyTests|ALSARecoveryTests|DeviceFadeTests|StationFadeTests)\b|MPRISTests\.PausedNavigationTests\b'
# Integration suites that run beside the other modules (about half the suite's time each way).
BESIDE_UNIT='RadioStationTests|NetworkLiveTests|PulseOutputTests|OpusNetworkTests|CaptureRigTests'

# --ignore-lock: the two processes only read the build (--skip-build); without it SwiftPM runs
# them one after the other.
run() {
    local name=$1
    shift
    "$SWIFT" test --skip-build --ignore-lock "$@" >"$LOG_DIR/$name.log" 2>&1
}

start=$SECONDS
echo "run-suite.sh: two processes, their output at their end (logs in $LOG_DIR)"
FIRST=${FIRST:-"IntegrationTests\.(?!($BESIDE_UNIT)\b)"}
run integration "${ARGS[@]}" --filter "$FIRST" --skip "$TIMING_SUITES" &
integration=$!
run others "${ARGS[@]}" --skip "$FIRST" --skip "$TIMING_SUITES" &
others=$!
beside=
if [ -n "${BUILD_BESIDE:-}" ]; then
    nice -n 19 bash -c "$BUILD_BESIDE" >"$LOG_DIR/beside.log" 2>&1 &
    beside=$!
fi
status=0
for job in integration:$integration others:$others; do
    wait "${job#*:}" || status=1
    echo "== ${job%:*} ($LOG_DIR/${job%:*}.log)"
    cat "$LOG_DIR/${job%:*}.log"
done
echo "run-suite.sh: the two processes took $((SECONDS - start)) s"
if [ -n "$beside" ]; then
    start=$SECONDS
    if ! wait "$beside"; then
        tail -n 40 "$LOG_DIR/beside.log"
        echo "run-suite.sh: the build beside the suite failed ($LOG_DIR/beside.log): $BUILD_BESIDE"
        status=1
    fi
    echo "run-suite.sh: the build beside the suite took $((SECONDS - start)) s more"
fi

start=$SECONDS
echo "== the suites that measure time, alone"
"$SWIFT" test --skip-build "${ARGS[@]}" --filter "$TIMING_SUITES" 2>&1 | tee "$LOG_DIR/timing.log" || status=1
echo "run-suite.sh: the timing suites took $((SECONDS - start)) s"
exit $status
