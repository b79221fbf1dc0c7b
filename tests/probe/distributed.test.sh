#!/usr/bin/env bash
# check's distributed section on fake roots and a fake torch (see distributed_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/distributed_cases.py"
