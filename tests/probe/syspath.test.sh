#!/usr/bin/env bash
# sys.path and the torch `import torch` takes, computed without running
# Python, against the real /usr/bin/python3 in the same environments
# (syspath_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/syspath_cases.py"
