#!/usr/bin/env bash
# inspect agrees with llvm-readobj on every PE DLL Debian's wine64 ships
# (imports, delay imports, machine, export and imported-function counts).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/oracle.py" pe /usr/lib/x86_64-linux-gnu/wine/x86_64-windows
