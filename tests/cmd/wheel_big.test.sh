#!/usr/bin/env bash
# torchdoctor wheel's streaming limit on a wheel of more than 2 GiB built in a
# temporary folder (see wheel_big.py): bounded RSS, every hash verified.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/wheel_big.py"
