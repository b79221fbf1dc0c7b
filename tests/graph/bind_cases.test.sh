#!/usr/bin/env bash
# Symbol binding against glibc's loader on binaries built here (see bind_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/bind_cases.py"
