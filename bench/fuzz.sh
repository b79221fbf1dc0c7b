#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each, FUZZ_JOBS (2) at a time, seeded from the
# test fixtures of its format (FIXTURES/<module>/). Any crash, leak, timeout or
# allocation over 64 MiB fails the run; the reproducer is kept in OUT.
#   bench/fuzz.sh FUZZ_BUILD_DIR SECONDS FIXTURES_DIR
set -uo pipefail
build=${1:?fuzz build dir}
seconds=${2:-60}
fixtures=${3:-}
out=${FUZZ_OUT:-$build/fuzz-out}
mkdir -p "$out"

run_one() {
    local bin=$1 name mod corpus
    name=$(basename "$bin")
    mod=${name#fuzz_}
    corpus=$out/corpus-$mod
    mkdir -p "$corpus"
    local seeds=()
    [ -n "$fixtures" ] && [ -d "$fixtures/$mod" ] && seeds+=("$fixtures/$mod")
    # fuzz_elf_sparse and the like: the fixtures of their format
    case $mod in graph_bind | report_inspect) [ -n "$fixtures" ] && seeds+=("$fixtures/elf") ;; esac
    [ -n "$fixtures" ] && [ ${#seeds[@]} -eq 0 ] && [ -d "$fixtures/${mod%%_*}" ] &&
        seeds+=("$fixtures/${mod%%_*}")
    "$bin" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len=262144 \
        -malloc_limit_mb=64 -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$out/$mod-" >"$out/$mod.log" 2>&1
    local rc=$?
    local runs
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$out/$mod.log" | grep -Eo '[0-9]+$')
    local cov
    cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$out/$mod.log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        echo "fuzz $mod: ${runs:-?} inputs in ${seconds}s (${cov:-cov ?}), no defect"
    else
        echo "fuzz $mod: FAILED (rc $rc); log follows"
        tail -n 60 "$out/$mod.log"
    fi
    return $rc
}

status=0
pids=()
for bin in "$build"/fuzz_*; do
    [ -x "$bin" ] || continue
    run_one "$bin" &
    pids+=($!)
    if [ ${#pids[@]} -ge "${FUZZ_JOBS:-2}" ]; then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
