#!/usr/bin/env bash
# torchdoctor check end to end (see check_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/check_cases.py"
