#!/usr/bin/env bash
# A missing library's fix names what provides it (see providers_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/providers_cases.py"
