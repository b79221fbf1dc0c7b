#!/usr/bin/env bash
# torchdoctor compat against the knowledge tables, row by row
# (tests/cmd/compat_check.py reads the TSVs itself), plus exit codes and the
# JSON schema of every answer.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/compat_check.py"
