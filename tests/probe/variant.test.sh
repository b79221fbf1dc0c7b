#!/usr/bin/env bash
# check's variant coherence of torch and its companions against real pip (see variant_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/variant_cases.py"
