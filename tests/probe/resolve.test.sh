#!/usr/bin/env bash
# check's MASTER_ADDR lookup without glibc's NSS: fake roots and a DNS server
# of the test's own on 127.0.0.1 (see resolve_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/probe/resolve_cases.py"
