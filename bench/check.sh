#!/usr/bin/env bash
# torchdoctor check against `python3 -m torch.utils.collect_env` on this
# machine (Debian's python3-torch), in one run: median wall time (hyperfine)
# and peak memory of each, and the ratios. Then the same with `import
# torch` broken (a copy of torch whose libc10 is unreadable on the path),
# where collect_env can say nothing about torch and check still reports.
#   bench/check.sh [TORCHDOCTOR]
set -uo pipefail
td=${1:-build/torchdoctor}
py=/usr/bin/python3
[ -d /usr/lib/python3/dist-packages/torch ] || { echo "python3-torch is not installed"; exit 2; }
tmp=$(mktemp)
trap 'rm -rf "$tmp" "$tmp.d"' EXIT

. "$(dirname "$0")/lib.sh"

measure "torchdoctor check --format json" td "$td" check --format json
measure "python3 -m torch.utils.collect_env" ce "$py" -m torch.utils.collect_env
ratio() { echo "$1 / $2" | bc -l; }
printf 'check is %.1fx faster and uses %.1fx less memory than collect_env\n' \
    "$(ratio "$T_ce" "$T_td")" "$(ratio "$M_ce" "$M_td")"

# Broken import: a directory on LD_LIBRARY_PATH whose libc10.so is not an ELF file.
mkdir -p "$tmp.d"
soname=$(objdump -p /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.* | awk '/NEEDED/ && /c10/ {print $2; exit}')
echo "not a library" >"$tmp.d/$soname"
echo "with $soname broken on LD_LIBRARY_PATH:"
LD_LIBRARY_PATH=$tmp.d "$py" -m torch.utils.collect_env 2>&1 | grep -iE 'PyTorch version|error' | head -3 | sed 's/^/  collect_env: /'
LD_LIBRARY_PATH=$tmp.d "$td" check --color never 2>&1 | grep -E '✗' | head -3 | sed 's/^/  check: /'
