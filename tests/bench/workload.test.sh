#!/usr/bin/env bash
# bench --workload: the step run through Debian's torch on the CPU (tiny
# shapes), and fake interpreters for the protocol, the stability figures,
# the verdicts and every way the child can fail (workload_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/bench/workload_cases.py"
