#!/usr/bin/env bash
# The interpreter's own closure is in the lookup scope: a shared-libpython
# interpreter (tests/fixtures/pylaunch.sh) leaves no Py* symbol unbound.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/interpreter_scope.py"
