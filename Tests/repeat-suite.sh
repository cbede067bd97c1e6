#!/usr/bin/env bash
# Hunts flakes: runs `make test` N times, each in a fresh clone of the current commit (a clean
# build, as CI and a newcomer get), and writes one line per run (duration, pass/fail, the tests
# that failed) to a summary. `make test-repeat N=5 BUSY=2` runs it:
#
#   Tests/repeat-suite.sh N
#
#   BUSY=K          the last K of the N runs have one core kept busy by a spinning process (a
#                   loaded machine), killed at the end of the run; default 0
#   TEST_TARGET=T   the make target each clone runs; default test (test-unit for a shorter hunt)
#   OUT=DIR         where the clones, the logs and summary.tsv go; default .build/test-repeat
#   RUN_TIMEOUT=S   a run that takes longer is ended and counted as failed; default 3600
#
# Only committed work is tested (a clone of HEAD): the script says so when the tree is dirty.
# Each clone is removed after its run (its log stays), unless KEEP=1. Exit status: 1 when any run
# failed.
set -uo pipefail
cd "$(dirname "$0")/.."
N=${1:-5}
BUSY=${BUSY:-0}
TEST_TARGET=${TEST_TARGET:-test}
OUT=$(realpath -m "${OUT:-.build/test-repeat}")
RUN_TIMEOUT=${RUN_TIMEOUT:-3600}
if ! [[ $N =~ ^[1-9][0-9]*$ && $BUSY =~ ^[0-9]+$ && $RUN_TIMEOUT =~ ^[1-9][0-9]*$ ]]; then
    echo "repeat-suite.sh: N ('$N') must be a count from 1, BUSY ('$BUSY') a count from 0 and RUN_TIMEOUT ('$RUN_TIMEOUT') seconds; e.g. make test-repeat N=5 BUSY=2" >&2
    exit 64
fi
repository=$(pwd)
commit=$(git rev-parse HEAD) || exit 1
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "repeat-suite.sh: the tree has uncommitted changes; they are not tested (each run clones $commit)"
fi
mkdir -p "$OUT"
summary=$OUT/summary.tsv
printf 'run\tbusy\tseconds\tresult\tfailed\n' >"$summary"

spinner=
stop_spinner() {
    if [ -n "$spinner" ]; then
        kill "$spinner" 2>/dev/null
        wait "$spinner" 2>/dev/null
        spinner=
    fi
}
trap stop_spinner EXIT
trap 'stop_spinner; exit 130' INT TERM

# The tests that failed, from a run's log: Swift Testing's "Test NAME failed" and XCTest's
# "Test Case 'NAME' failed" lines, and the make stages that failed ("[Makefile:N: test-fuzz]").
failures() {
    {
        sed -n -e 's/.*Test \(.*\) failed after .*/\1/p' -e "s/.*Test Case '\(.*\)' failed .*/\1/p" "$1"
        sed -n 's/.*\*\*\* \[Makefile:[0-9]*: \([a-z-]*\)\].*/make \1/p' "$1"
    } | sort -u | paste -sd ';' -
}

status=0
for run in $(seq 1 "$N"); do
    busy=no
    if [ "$run" -gt $((N - BUSY)) ]; then busy=yes; fi
    clone=$OUT/run-$run
    log=$OUT/run-$run.log
    rm -rf "$clone"
    git clone --quiet --no-checkout "$repository" "$clone" && git -C "$clone" checkout --quiet --detach "$commit" || exit 1
    if [ $busy = yes ]; then
        ( while :; do :; done ) &
        spinner=$!
    fi
    echo "repeat-suite.sh: run $run of $N (make $TEST_TARGET in $clone, a core kept busy: $busy; log $log)"
    start=$SECONDS
    # The outer make's variables (N, BUSY) stay out of the clone's make.
    (cd "$clone" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout "$RUN_TIMEOUT" make "$TEST_TARGET") >"$log" 2>&1
    code=$?
    seconds=$((SECONDS - start))
    stop_spinner
    result=pass
    if [ $code -ne 0 ]; then
        result="fail (exit $code$([ $code = 124 ] && echo ", over ${RUN_TIMEOUT} s"))"
        status=1
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$run" "$busy" "$seconds" "$result" "$(failures "$log")" >>"$summary"
    echo "repeat-suite.sh: run $run: $result in $seconds s"
    if [ "${KEEP:-0}" != 1 ]; then rm -rf "$clone"; fi
done
echo "repeat-suite.sh: $summary"
column -t -s $'\t' "$summary"
exit $status
