#!/usr/bin/env bash
# check's integrity of torch and every nvidia-* wheel (see integrity_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/integrity_cases.py"
