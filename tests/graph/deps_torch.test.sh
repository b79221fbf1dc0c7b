#!/usr/bin/env bash
# deps on Debian's real PyTorch and on copies of it broken six ways.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/graph/deps_torch.py"
