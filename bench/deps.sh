#!/usr/bin/env bash
# deps --format json (with symbol binding) on Debian torch's _C module, side
# by side with libtree (no symbols), lddtree, ldd, and ldd -r on
# libtorch_cpu.so, in one run: median wall time (hyperfine) and peak
# memory, and the ratios. Needs python3-torch, libtree, pax-utils (make bench).
#   bench/deps.sh [TORCHDOCTOR]
set -uo pipefail
td=${1:-build/torchdoctor}
c=$(ls /usr/lib/python3/dist-packages/torch/_C.cpython-*.so 2>/dev/null | head -1)
cpu=$(ls /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.* 2>/dev/null | head -1)
[ -n "$c" ] || { echo "python3-torch is not installed"; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
unset LD_LIBRARY_PATH

. "$(dirname "$0")/lib.sh"

echo "closure of $c"
"$td" deps --format json "$c" >"$tmp.json"
/usr/bin/python3 - "$tmp.json" <<'P'
import json, sys
d = json.load(open(sys.argv[1]))
libs = [l for l in d["libraries"] if l["status"] != "root"]
errors = [f for f in d["findings"] if f["severity"] == "error"]
print(f"  torchdoctor: {len(libs)} libraries, {sum(1 for l in libs if not l['path'])} missing, "
      f"{d['symbols']['distinct_references']} distinct symbol references bound, {len(errors)} errors")
P
rm -f "$tmp.json"
measure "torchdoctor deps --format json (symbols)" td "$td" deps --format json "$c"
measure "torchdoctor deps --no-symbols" tdns "$td" deps --no-symbols --format json "$c"
measure "libtree (no symbols)" libtree libtree "$c"
measure "lddtree (no symbols)" lddtree /usr/bin/python3 /usr/bin/lddtree "$c"
measure "ldd" ldd ldd "$c"
measure "ldd -r libtorch_cpu.so" lddr ldd -r "$cpu"
echo "ldd -r on _C reports $(ldd -r "$c" 2>&1 | grep -c 'undefined symbol') undefined symbols (the interpreter's Py* among them)"

ratio() { echo "$1 / $2" | bc -l; }
printf 'ratios (how many times faster torchdoctor deps with symbols is): libtree %.2fx, lddtree %.1fx, ldd %.1fx, ldd -r %.1fx\n' \
    "$(ratio "$T_libtree" "$T_td")" "$(ratio "$T_lddtree" "$T_td")" "$(ratio "$T_ldd" "$T_td")" "$(ratio "$T_lddr" "$T_td")"
printf 'peak memory: torchdoctor %d KiB (--no-symbols %d KiB), ldd -r %d KiB, lddtree %d KiB\n' \
    "$M_td" "$M_tdns" "$M_lddr" "$M_lddtree"
