#!/usr/bin/env bash
# GPU truth on NVIDIA's real CUDA 13 libraries: every fat binary container
# of a file, wherever it lies, against an independent header scan, and
# check's verdict per (library, GPU) against NVIDIA's rules written out
# again in tests/fatbin_oracle.py (see gpu_truth_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/gpu_truth_cases.py"
