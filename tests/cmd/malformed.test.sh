#!/usr/bin/env bash
# Malformed inputs of every format through `inspect` (see malformed.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/malformed.py"
