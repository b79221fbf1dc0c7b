#!/usr/bin/env bash
# shadowed_library: a library the environment puts ahead of the install's
# copy (see env_shadow.py), against ld.so itself.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/env_shadow.py"
