#!/usr/bin/env bash
# inspect --symbols --format json on the largest shared object on this
# machine, side by side with `readelf -W --dyn-syms` and `nm -D`, in one
# run; prints wall time and peak memory of each and the ratios. Timings on
# a shared 2-core machine are noisy: read the ratios, not the last digit.
#   bench/inspect.sh [TORCHDOCTOR] [FILE]
set -euo pipefail
td=${1:-build/torchdoctor}
file=${2:-}
if [ -z "$file" ]; then
    file=$(find /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'libtorch_cpu.so*' -type f | head -1)
    [ -n "$file" ] || file=$(find /usr/lib /usr/local/lib -name '*.so*' -type f -printf '%s %p\n' 2>/dev/null |
        sort -n | tail -1 | cut -d' ' -f2)
fi
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)"; exit 2; }
size=$(stat -c %s "$file")
echo "file: $file ($((size / 1000000)) MB, $("$td" inspect --format json "$file" |
    /usr/bin/python3 -c 'import json,sys; s=json.load(sys.stdin)["files"][0]["symbols"]; print(s["defined"]+s["undefined"], "dynamic symbols")'))"

. "$(dirname "$0")/lib.sh"

measure "torchdoctor inspect --symbols --format json" tdinspect "$td" inspect --symbols --format json "$file"
measure "readelf -W --dyn-syms" readelf readelf -W --dyn-syms "$file"
measure "nm -D" nm nm -D "$file"
# /usr/bin/time has 10 ms resolution: hyperfine times the two fast tools the
# same way (no shell, 3 warm-ups, 30 runs) and gives the ratio of means.
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 3 --runs 30 --export-json "$tmp.hf" \
        "$td inspect --symbols --format json $file" "nm -D $file" >/dev/null 2>&1
    read -r per nm_mean < <(/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(r[0]["mean"], r[1]["mean"])' "$tmp.hf")
    rm -f "$tmp.hf"
    printf '%-44s %7.4f s (hyperfine mean of 30)\n' "torchdoctor inspect" "$per"
    printf '%-44s %7.4f s (hyperfine mean of 30)\n' "nm -D" "$nm_mean"
    T_nm=$nm_mean
else
    start=$(date +%s.%N)
    for _ in $(seq 20); do "$td" inspect --symbols --format json "$file" >/dev/null; done
    per=$(echo "($(date +%s.%N) - $start) / 20" | bc -l)
    printf '%-44s %7.4f s (mean of 20 back-to-back runs)\n' "torchdoctor inspect" "$per"
fi
printf 'ratio: nm -D / torchdoctor = %.1fx, readelf / torchdoctor = %.1fx\n' \
    "$(echo "$T_nm / $per" | bc -l)" "$(echo "$T_readelf / $per" | bc -l)"
printf 'peak memory: torchdoctor %d KiB = %.3f of the file size (target < 0.1)\n' \
    "$M_tdinspect" "$(echo "$M_tdinspect * 1024 / $size" | bc -l)"
# hyperfine times all runs of one command, then all of the other: on a
# loaded machine the two blocks meet different loads (one run's ratio was
# 7.2x, the next one's 11.5x). Paired runs, alternated, say more: the median
# of the per-pair ratios of CPU time (perf's task-clock) and of wall time.
if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then
    echo "paired, 20 pairs (bench/ab.py; A nm -D, B torchdoctor; load $(cut -d' ' -f1-3 /proc/loadavg)):"
    /usr/bin/python3 "$(dirname "$0")/ab.py" 20 "nm -D $file" "$td inspect --symbols --format json $file"
fi
