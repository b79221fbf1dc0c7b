#!/usr/bin/env bash
# inspect on a header-only FLUX.1-shaped 12B-parameter safetensors file (a
# sparse 23.8 GB file written by tests/cmd/model_files.py: header JSON and a
# hole), and check --workload flux-lora --model on it. The goal: under
# 50 ms, since only the header is read. Timings on a shared machine are
# noisy: read the median.
#   bench/model-header.sh [TORCHDOCTOR] [RUNS]
set -euo pipefail
td=${1:-build/torchdoctor}
runs=${2:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file=$dir/flux1-dev.safetensors
size=$(/usr/bin/python3 "$(dirname "$0")/../tests/cmd/model_files.py" flux "$file")
echo "file: $file ($((size / 1000000)) MB apparent, $(du -k "$file" | cut -f1) KB on disk)"
/usr/bin/python3 - "$td" "$file" "$runs" <<'PY'
import statistics, subprocess, sys, time
td, f, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
for name, cmd in (("inspect --format json", [td, "inspect", "--format", "json", f]),
                  ("inspect (text)", [td, "inspect", f])):
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        t.append((time.perf_counter() - t0) * 1000)
    print(f"{name:28s} median {statistics.median(t):6.1f} ms  min {min(t):6.1f} ms  "
          f"max {max(t):6.1f} ms  ({runs} runs, goal < 50 ms)")
PY
