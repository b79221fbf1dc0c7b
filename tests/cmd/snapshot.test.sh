#!/usr/bin/env bash
# snapshot, diff, log and the restore script end to end (see snapshot_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/snapshot_cases.py"
