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
start=$(date +%s.%N)
for _ in $(seq 20); do "$td" inspect --symbols --format json "$file" >/dev/null; done
end=$(date +%s.%N)
per=$(echo "($end - $start) / 20" | bc -l)
printf '%-40s %8.4f s (mean of 20 back-to-back runs)\n' "torchdoctor inspect, finer timing" "$per"
printf 'ratio: nm -D / torchdoctor = %.1fx, readelf / torchdoctor = %.1fx\n' \
    "$(echo "$T_nm / $per" | bc -l)" "$(echo "$T_readelf / $per" | bc -l)"
printf 'peak memory: torchdoctor %d KiB = %.3f of the file size (target < 0.1)\n' \
    "$M_tdinspect" "$(echo "$M_tdinspect * 1024 / $size" | bc -l)"
