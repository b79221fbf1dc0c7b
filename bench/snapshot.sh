#!/usr/bin/env bash
# torchdoctor snapshot on this machine (Debian's python3-torch) against what
# users reach for instead (`pip freeze`, which records neither the index URL,
# the driver, the search paths nor the native libraries), and diff of two
# snapshots. The design budget: snapshot under 200 ms without --verify.
#   bench/snapshot.sh [TORCHDOCTOR]
set -uo pipefail
td=${1:-build/torchdoctor}
py=/usr/bin/python3
[ -d /usr/lib/python3/dist-packages/torch ] || { echo "python3-torch is not installed"; exit 2; }
tmp=$(mktemp)
trap 'rm -rf "$tmp" "$tmp.a" "$tmp.b"' EXIT

. "$(dirname "$0")/lib.sh"

measure "torchdoctor snapshot --python python3 --no-gpu" sn "$td" snapshot --python "$py" --no-gpu
measure "torchdoctor snapshot (driver probe too)" sg "$td" snapshot
measure "torchdoctor snapshot --verify --no-gpu" sv "$td" snapshot --python "$py" --no-gpu --verify
measure "python3 -m pip freeze" pf "$py" -m pip freeze
"$td" snapshot --python "$py" --no-gpu -o "$tmp.a" 2>/dev/null
"$td" snapshot --python "$py" --no-gpu -o "$tmp.b" 2>/dev/null
measure "torchdoctor diff A.json B.json" df "$td" diff "$tmp.a" "$tmp.b"
within=$(echo "$T_sn < 0.2" | bc -l)
printf 'snapshot: %.0f ms (budget 200 ms: %s)\n' "$(echo "$T_sn * 1000" | bc -l)" \
    "$([ "$within" = 1 ] && echo within || echo OVER)"
