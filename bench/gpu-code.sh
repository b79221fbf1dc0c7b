#!/usr/bin/env bash
# The cost of reading every CUDA fat binary container (issue 26), side by
# side with a plain `readelf -S` pass over the same files, in one run:
#   1. inspect of cuFFT (every container: ~24,000, most in .ldata);
#   2. inspect of every NVIDIA library a torch install loads (~2.5 GB);
#   3. check on the CUDA 13 wheels laid out under a torch (tests/cudalayout.py)
#      with a stand-in driver faking an RTX 3090 (SASS found early: the
#      reading stops) and a GPU newer than every cubin (13.0: every
#      container of every library is read), against check --no-gpu.
# Warm page cache (hyperfine's warm-ups). Ratios from one run; a shared
# 2-core machine is noisy: read the ratios, not the last digit.
#   bench/gpu-code.sh [TORCHDOCTOR] [FIXTURES]
set -euo pipefail
td=$(realpath "${1:-build/torchdoctor}")
fx=$(realpath "${2:-build/fixtures}")
src=$(cd "$(dirname "$0")/.." && pwd)
lib=/usr/local/cuda/lib
[ -d "$lib" ] && [ -d /usr/local/cuda/dist-info ] || { echo "skipped: no NVIDIA wheels under /usr/local/cuda"; exit 0; }
[ -f "$fx/fake_cuda/lib/libcuda.so.1" ] || { echo "needs the test fixtures in $fx (ctest -R fixtures)"; exit 2; }
tmp=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$tmp" "$work"' EXIT
. "$(dirname "$0")/lib.sh"

libs=()
for n in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcufft.so.12 libcurand.so.10 \
    libcusparse.so.12 libcusolver.so.12 libnvJitLink.so.13 libcupti.so.13 libnvrtc.so.13 \
    libnccl.so.2 libcudnn.so.9 libcudnn_graph.so.9 libcudnn_ops.so.9 libcudnn_cnn.so.9 \
    libcudnn_adv.so.9 libcudnn_engines_precompiled.so.9 libcudnn_engines_runtime_compiled.so.9 \
    libcudnn_heuristic.so.9; do
    [ -f "$lib/$n" ] && libs+=("$(realpath "$lib/$n")")
done
total=$(du -cbL "${libs[@]}" | tail -1 | cut -f1)
echo "${#libs[@]} libraries, $((total / 1000000)) MB; cuFFT $(($(stat -Lc %s "$lib/libcufft.so.12") / 1000000)) MB"
measure "inspect libcufft.so.12" cufft "$td" inspect "$lib/libcufft.so.12"
measure "readelf -S libcufft.so.12" cufft_re readelf -SW "$lib/libcufft.so.12"
measure "inspect (every container of ${#libs[@]} libraries)" all "$td" inspect "${libs[@]}"
measure "readelf -S (the same files)" all_re readelf -SW "${libs[@]}"

py=$(/usr/bin/python3 - "$src" "$work" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests"))
import cudalayout
py, site = cudalayout.venv(os.path.join(sys.argv[2], "v"))
cudalayout.lay_out(site)
cudalayout.torch_install(site, needs=("libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13",
    "libcufft.so.12", "libcurand.so.10", "libcusparse.so.12", "libcusolver.so.12", "libnvJitLink.so.13",
    "libcupti.so.13", "libnvrtc.so.13", "libcudnn.so.9", "libnccl.so.2"))
print(py)
PY
)
export HOME=/nonexistent LD_LIBRARY_PATH="$fx/fake_cuda/lib" TD_FAKE_CUDA_VERSION=13010 TD_FAKE_NVML_DRIVER=590.44.01
measure "check --no-gpu" nogpu "$td" check --python "$py" --no-gpu
export TD_FAKE_GPUS="NVIDIA GeForce RTX 3090:8.6:25447170048"
measure "check, RTX 3090 (reading stops at SASS)" early "$td" check --python "$py"
export TD_FAKE_GPUS="NVIDIA Future GPU:13.0:25447170048"
measure "check, a 13.0 GPU (every container read)" full "$td" check --python "$py"
ms() { echo "scale=1; ($1) * 1000 / 1" | bc; }
echo
echo "inspect of cuFFT: $(ms "$T_cufft") ms ($(echo "scale=1; $T_cufft / $T_cufft_re" | bc)x readelf -S)"
echo "inspect of ${#libs[@]} libraries: $(ms "$T_all") ms ($(echo "scale=1; $T_all / $T_all_re" | bc)x readelf -S)"
echo "check adds, reading every container: $(ms "$T_full - $T_nogpu") ms; stopping at SASS: $(ms "$T_early - $T_nogpu") ms"
