#!/usr/bin/env bash
# inspect agrees with readelf on every ELF shared object in the system's
# library directory (NEEDED, SONAME, RPATH, RUNPATH, machine, symbol counts).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/oracle.py" elf /usr/lib/x86_64-linux-gnu
