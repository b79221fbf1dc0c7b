#!/usr/bin/env bash
# Graph-level findings of deps on binaries built here (see deps_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/deps_cases.py"
