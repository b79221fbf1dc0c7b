#!/usr/bin/env bash
# Runs the whole test suite RUNS times in a row on a busy machine, to show no
# test depends on the machine's speed (issue 31). Each run's outcome, its
# duration and the load average are printed; any failed run fails the script.
#   bench/suite-load.sh BUILD_DIR RUNS [--load busy|none] [--taskset CPUS]
#     --load busy   one busy loop per core beside the suite (the default)
#     --load none   the load is someone else's (say what it was)
#     --taskset 0   the suite pinned to the cores listed (taskset -c)
set -uo pipefail
build=${1:?build dir}
runs=${2:-5}
shift 2 || true
load=busy cpus=
while [ $# -gt 0 ]; do
    case $1 in
    --load) load=$2; shift 2 ;;
    --taskset) cpus=$2; shift 2 ;;
    *) echo "suite-load.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

loops=()
stop_loops() { [ ${#loops[@]} -gt 0 ] && kill "${loops[@]}" 2>/dev/null; loops=(); }
trap stop_loops EXIT
if [ "$load" = busy ]; then
    for _ in $(seq "$(nproc)"); do
        (while :; do :; done) &
        loops+=($!)
    done
fi

pin=()
[ -n "$cpus" ] && pin=(taskset -c "$cpus")
failed=0
for i in $(seq "$runs"); do
    log=$build/suite-load-$i.log
    t0=$(date +%s)
    "${pin[@]}" ctest --test-dir "$build" -j2 --output-on-failure >"$log" 2>&1
    rc=$?
    t1=$(date +%s)
    summary=$(grep -E 'tests passed' "$log" | tail -n 1)
    echo "run $i/$runs: rc $rc, ${summary:-no summary}, $((t1 - t0)) s," \
        "load average $(cut -d' ' -f1-3 /proc/loadavg), load $load${cpus:+, taskset -c $cpus}"
    [ $rc -eq 0 ] || { failed=1; grep -E '\*\*\*Failed|Timeout' "$log" | head; }
done
exit $failed
