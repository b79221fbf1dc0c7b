#!/usr/bin/env bash
# check's Requires-Dist pins against pip check (see pins_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/pins_cases.py"
