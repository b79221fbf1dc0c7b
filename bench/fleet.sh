#!/usr/bin/env bash
# torchdoctor fleet at scale: N nodes' check and bench reports (10,000 by
# default, 2 reports each) generated from this machine's real check and
# bench reports with controlled differences (tests/cmd/fleet_gen.py: one
# older driver, one node missing a GPU, one slow node), then aggregated on
# one core (taskset). The design budget: 10,000 nodes in under 1 s, memory
# linear in the input (peak RSS printed beside the input size).
#   bench/fleet.sh [TORCHDOCTOR] [N]
set -uo pipefail
td=${1:-build/torchdoctor}
n=${2:-10000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
tmp=$work/t
trap 'rm -rf "$work"' EXIT

. "$here/lib.sh"

"$td" check --no-gpu --format jsonl >"$work/check.jsonl" 2>/dev/null
"$td" bench --quick --no-gpu --format jsonl >"$work/bench.jsonl" 2>/dev/null
python3 "$here/../tests/cmd/fleet_gen.py" "$work/check.jsonl" --bench "$work/bench.jsonl" \
    -n "$n" -o "$work/fleet.jsonl" --old-driver gpu0042 --missing-gpu gpu0500 --slow gpu0777
size=$(stat -c %s "$work/fleet.jsonl")
printf 'input: %d nodes, %d reports, %.0f MB (one check report %.0f KB)\n' "$n" $((2 * n)) \
    "$(echo "$size / 1000000" | bc -l)" "$(echo "$(stat -c %s "$work/check.jsonl") / 1000" | bc -l)"
cat "$work/fleet.jsonl" >/dev/null # in the page cache, as the runs after the first
measure "torchdoctor fleet ($n nodes, one core)" fl taskset -c 0 "$td" fleet "$work/fleet.jsonl"
measure "torchdoctor fleet --format json" fj taskset -c 0 "$td" fleet --format json "$work/fleet.jsonl"
half=$((n / 2))
head -n $((2 * half)) "$work/fleet.jsonl" >"$work/half.jsonl"
measure "torchdoctor fleet ($half nodes, one core)" fh taskset -c 0 "$td" fleet "$work/half.jsonl"
printf 'memory: %d KiB for %d nodes, %d KiB for %d (linear: about twice)\n' "$M_fl" "$n" "$M_fh" "$half"
# CPU time too (user + sys, the least of 5 runs): on a machine shared with
# other work the wall time measures the others as well.
cpu=
for _ in 1 2 3 4 5; do
    /usr/bin/time -o "$tmp" -f '%U %S' taskset -c 0 "$td" fleet "$work/fleet.jsonl" >/dev/null 2>&1
    c=$(awk '{print $1 + $2}' "$tmp" | tail -1)
    [ -z "$cpu" ] || [ "$(echo "$c < $cpu" | bc -l)" = 1 ] && cpu=$c
done
within=$(echo "$T_fl < 1" | bc -l)
printf 'fleet: %.0f ms wall, %.0f ms CPU for %d nodes (budget 1 s: %s; load average %s)\n' \
    "$(echo "$T_fl * 1000" | bc -l)" "$(echo "$cpu * 1000" | bc -l)" "$n" \
    "$([ "$within" = 1 ] && echo within || echo OVER)" "$(cut -d' ' -f1 /proc/loadavg)"
