#!/usr/bin/env bash
# Which CUDA line the fixes of check and compat pick (see cuda_pick_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/cuda_pick_cases.py"
