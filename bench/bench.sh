#!/usr/bin/env bash
# torchdoctor bench's own figures against the tools a user would compare
# them with, as ratios (scripts, not timed tests; this machine is shared,
# so expect noise of tens of percent between runs):
#   - our FP32 GEMM on one core vs numpy's float32 matmul (python3-numpy,
#     through whatever libblas.so.3 the system gives it) on the same size;
#   - our memory triad vs a STREAM-like OpenMP triad (bench/stream_triad.c,
#     built here) on the same array size and thread count.
#   bench/bench.sh [TORCHDOCTOR]
set -uo pipefail
td=${1:-build/torchdoctor}
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$td" bench --no-gpu --python /bin/false --format json >"$tmp/td.json" 2>/dev/null
read -r size gemm1 triad bytes threads blas < <("$py" -c '
import json, sys
b = json.load(open(sys.argv[1]))["bench"]
print(b["cpu"]["size"], b["cpu"]["gemm_fp32_1core"]["value"], b["memory"]["triad"]["value"],
      b["memory"]["array_bytes"], b["cpu"]["threads"], b["cpu"]["isa"])' "$tmp/td.json")
printf 'torchdoctor GEMM %dx%d, 1 core (%s):   %8.2f GFLOP/s\n' "$size" "$size" "$blas" "$gemm1"

if "$py" -c 'import numpy' 2>/dev/null; then
    numpy=$(OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 "$py" -c '
import sys, time, numpy as np
n = int(sys.argv[1])
a = np.random.rand(n, n).astype(np.float32)
b = np.random.rand(n, n).astype(np.float32)
a @ b
best = 0.0
began = time.perf_counter()
while time.perf_counter() - began < 3:
    t = time.perf_counter()
    a @ b
    best = max(best, 2.0 * n ** 3 / (time.perf_counter() - t) / 1e9)
print("%.3f" % best)' "$size")
    blaslib=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)
    printf 'numpy float32 matmul, 1 thread (%s): %8.2f GFLOP/s\n' "$blaslib" "$numpy"
    printf 'ours / numpy: %.2f\n' "$(echo "$gemm1 / $numpy" | bc -l)"
else
    echo "skipped: numpy (python3-numpy) is not installed"
fi

if gcc -O2 -fopenmp -o "$tmp/triad" "$(dirname "$0")/stream_triad.c" 2>"$tmp/cc.log"; then
    stream=$(OMP_NUM_THREADS=$threads "$tmp/triad" "$bytes")
    printf 'torchdoctor triad (%d MiB arrays, %d threads): %8.2f GB/s\n' \
        $((bytes >> 20)) "$threads" "$triad"
    printf 'STREAM-like triad (same size and threads):   %8.2f GB/s\n' "$stream"
    printf 'ours / STREAM-like: %.2f\n' "$(echo "$triad / $stream" | bc -l)"
else
    echo "skipped: the STREAM-like triad did not build:"; cat "$tmp/cc.log"
fi
