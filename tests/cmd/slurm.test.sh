#!/usr/bin/env bash
# fleet --slurm and check --health through a real single-node Slurm
# (tests/cmd/slurm_cluster.sh: munged, slurmctld and slurmd on localhost,
# a temporary configuration, torn down after). When this machine cannot
# start them the test says exactly why and exits 77, which ctest counts as
# skipped (tests/tests.cmake), never as passed.
set -uo pipefail
td=$(readlink -f "$TD_BIN")
# munged wants every parent of its socket folder searchable by all.
base=${TD_BUILD:-/tmp}
dir=$(mktemp -d "$base/slurm.XXXXXX")
chmod 755 "$dir"
. "$TD_SRC/tests/cmd/slurm_cluster.sh"
trap 'slurm_down; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; [ -f "$dir/c/slurmctld.log" ] && tail -5 "$dir/c/slurmctld.log"; exit 1; }

if ! slurm_up "$dir/c"; then
    echo "skipped: a single-node Slurm could not be started here: $slurm_why"
    exit 77
fi
host=$(hostname -s)

# 1. fleet --slurm: srun runs check on the node, fleet reads its JSON line
#    (longer than srun -l's 1024-byte pieces) and names the node.
"$td" fleet --slurm --format json >"$dir/fleet.json" 2>"$dir/fleet.err"
rc=$?
[ $rc -le 1 ] || fail "fleet --slurm exit $rc: $(cat "$dir/fleet.err")"
python3 - "$dir/fleet.json" "$host" <<'P' || fail "fleet --slurm report"
import json, sys
d = json.load(open(sys.argv[1]))
fl = d["fleet"]
assert fl["nodes"] == 1 and fl["reports"] == 1, fl
assert fl["groups"][0]["hosts"] == sys.argv[2] and fl["groups"][0]["majority"], fl["groups"]
assert fl["unfinished"] == [] and fl["unreadable"] == [], fl
P
grep -q "1 report from srun" "$dir/fleet.err" || fail "no progress line: $(cat "$dir/fleet.err")"

# 2. A node whose task fails is reported failed, not dropped.
"$td" fleet --slurm --program /bin/false >"$dir/failed.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a failed node: exit 1 expected, got $rc"
grep -q "failed  $host: Exited with exit code 1" "$dir/failed.txt" || fail "$(cat "$dir/failed.txt")"

# 3. A node that does not finish within --timeout is reported timed out.
printf '#!/bin/sh\nexec sleep 600\n' >"$dir/hang.sh"
chmod 755 "$dir/hang.sh"
"$td" fleet --slurm --program "$dir/hang.sh" --timeout 2 -- -w "$host" >"$dir/hang.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a hung node: exit 1 expected, got $rc: $(cat "$dir/hang.txt")"
grep -q "timeout $host" "$dir/hang.txt" || fail "$(cat "$dir/hang.txt")"

# 4. The documented sbatch script, as a batch job.
(cd "$dir" && TORCHDOCTOR=$td sbatch --wait --output="$dir/job-%j.out" \
    "$TD_SRC/packaging/slurm/torchdoctor-fleet.sbatch" >"$dir/sbatch.txt" 2>&1)
out=$(ls "$dir"/job-*.out 2>/dev/null | head -1)
[ -n "$out" ] && grep -q "majority.* $host (1 node)" "$out" ||
    fail "sbatch job: $(cat "$dir/sbatch.txt" "$out" 2>/dev/null)"

# 5. check --health as a job: healthy, then a setting torch would reject
#    (srun passes the environment on), with the drain line printed.
srun -N1 "$td" check --health >"$dir/health.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^torchdoctor: healthy' "$dir/health.txt" ||
    fail "health job: exit $rc: $(cat "$dir/health.txt")"
PYTORCH_CUDA_ALLOC_CONF=bogus:1 srun -N1 "$td" check --health >"$dir/sick.txt" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "an unhealthy node's job must fail"
[ "$(wc -l <"$dir/sick.txt")" -ge 2 ] || fail "$(cat "$dir/sick.txt")"
grep -q '^torchdoctor: env_var_invalid: PYTORCH_CUDA_ALLOC_CONF' "$dir/sick.txt" || fail "$(cat "$dir/sick.txt")"
grep -q "^scontrol update nodename=$host state=drain reason=\"torchdoctor: env_var_invalid" "$dir/sick.txt" ||
    fail "$(cat "$dir/sick.txt")"
# Printed, never run: the node is not drained. Any other state counts as up:
# right after a job the node may still be completing ("comp"), which the
# list of idle states this line once required missed on a loaded machine.
state=$(sinfo -h -N -o '%t')
case $state in dr* | *drain*) fail "the node was drained: $(sinfo -N)" ;; esac
echo "slurm: ok"
