#!/usr/bin/env bash
# torchdoctor wheel: wheels built here (gcc, mingw-w64, clang Mach-O and
# ARM64 PE, nvcc, the real libgomp and CUDA runtime), each broken in one
# known way, plus correct ones (see wheel_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/wheel_cases.py"
