#!/usr/bin/env bash
# deps given relative paths, ./x, ../lib/x and a link: as the absolute path, as ldd.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/deps_relative.py"
