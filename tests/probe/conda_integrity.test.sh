#!/usr/bin/env bash
# check's integrity of a conda environment (see conda_integrity_cases.py).
set -euo pipefail
command -v gcc >/dev/null || { echo "skipped: no gcc"; exit 0; }
exec /usr/bin/python3 "$TD_SRC/tests/probe/conda_integrity_cases.py"
