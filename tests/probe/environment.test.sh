#!/usr/bin/env bash
# check's environment section over fake roots (see environment_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/environment_cases.py"
