#!/usr/bin/env bash
# CUDA fat binaries: inspect's entries against nvcc-built fixtures and the
# real CUDA 13 libraries, check's GPU-code findings (see fatbin_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/fatbin_cases.py"
