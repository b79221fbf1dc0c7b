#!/usr/bin/env bash
# One model of a target (graph/target.h): deps, check and check --root name
# the same finding for one broken torch; a file in torch/lib adds no root.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/target_model.py"
