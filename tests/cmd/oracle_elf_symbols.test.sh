#!/usr/bin/env bash
# inspect --symbols --format json lists what readelf -W --dyn-syms does, symbol
# by symbol (name, type, binding, defined, version), on the largest ELF shared
# objects of the system's library directory: listings of tens of thousands of
# rows, past every refill of the JSON writer's buffer, with the fat binary
# search on its own thread beside them.
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/oracle.py" elfsyms /usr/lib/x86_64-linux-gnu
