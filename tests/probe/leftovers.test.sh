#!/usr/bin/env bash
# Leftover libraries beside another version of them (see leftovers_cases.py).
set -euo pipefail
command -v gcc >/dev/null || { echo "skipped: no gcc"; exit 0; }
[ -x /usr/bin/python3.11 ] || { echo "skipped: no /usr/bin/python3.11 for the venv"; exit 0; }
exec /usr/bin/python3 "$TD_SRC/tests/probe/leftovers_cases.py"
